/** `npm run web`: the web app alone against DATABASE_URL (builds first when needed). */
import path from 'node:path';
import { parseTrustedProxies } from '../domain/client-address';
import { publicBaseUrl } from '../domain/public-url';
import { authSecret, ensureNextBuild, requireEnv, root, startNext, stopChild } from './lib';

try {
  parseTrustedProxies(process.env.PUNCTUAL_TRUSTED_PROXIES);
} catch (e) {
  console.error((e as Error).message);
  process.exit(2);
}

const databaseUrl = requireEnv('DATABASE_URL', 'point it at the PostgreSQL that `npm start` or your deployment uses');
const port = Number(process.env.PORT ?? 3000);
try {
  // A bad PUNCTUAL_PUBLIC_URL stops here, naming the rule (domain/public-url.ts).
  publicBaseUrl(process.env);
} catch (e) {
  console.error((e as Error).message);
  process.exit(2);
}
await ensureNextBuild(console.log);
const web = await startNext(port, { DATABASE_URL: databaseUrl, BETTER_AUTH_SECRET: authSecret(path.resolve(root, process.env.PUNCTUAL_DATA_DIR ?? '.data')) }, console.log);
console.log(`Punctual web app at http://127.0.0.1:${port}/events`);
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => void stopChild(web).then(() => process.exit(0)));
web.once('exit', (code) => process.exit(code ?? 1));
