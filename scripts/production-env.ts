/**
 * `process.env.NODE_ENV ??= 'production'` — imported FIRST by the worker entry points (scripts/worker.ts,
 * scripts/start.ts) so React and React DOM, which pick their production or development build from NODE_ENV
 * when they are first loaded, render emails in production mode (issue #11: the development build costs about a
 * third more CPU per message and the output bytes are the same). ESM evaluates imports in order, so this module
 * runs before any later import loads React; an explicit NODE_ENV (e.g. `development`) is kept.
 */
// (Next's types declare NODE_ENV read-only; at run time it is an ordinary environment variable.)
(process.env as Record<string, string | undefined>).NODE_ENV ??= 'production';

export {};
