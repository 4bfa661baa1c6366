import path from 'node:path';
import { defineConfig } from 'vitest/config';

/** `@/x` is `<project root>/x` (tsconfig.json `paths`), in tests as in the app. */
const resolve = { alias: [{ find: /^@\//, replacement: `${path.resolve(import.meta.dirname)}/` }] };

/**
 * Two projects: `unit` (pure domain/ and template tests, no I/O) and `integration` (test/: real PostgreSQL,
 * real SMTP). Integration files share one PostgreSQL server; each file gets its own database cloned from a
 * migrated template (see test/support/global-setup.ts), so files may run in parallel.
 */
export default defineConfig({
  test: {
    projects: [
      {
        resolve,
        test: {
          name: 'unit',
          include: ['domain/**/*.test.ts', 'emails/**/*.test.{ts,tsx}', 'test/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
          sequence: { groupOrder: 0 },
        },
      },
      {
        resolve,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: ['test/unit/**'],
          environment: 'node',
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
