/**
 * `npm run mail-catcher`: the built-in SMTP catcher on its own, for a trial of the production set-up without a mail
 * server (README "Running it in production"): it stores every message in DATABASE_URL's `caught_messages`, where the
 * staff app's Mailbox shows it. Port SMTP_CATCHER_PORT (default 2525, on 127.0.0.1); prints the SMTP_URL (with its
 * random login) to give the workers. Not for production: nothing is delivered anywhere.
 */
import { randomBytes } from 'node:crypto';
import { createDb } from '@/db/client';
import { startMailCatcher } from '@/dev/mail-catcher';
import { requireDatabaseUrl } from './lib';

const handle = createDb(requireDatabaseUrl(), { max: 2 });
const catcher = await startMailCatcher({
  db: handle.db,
  port: Number(process.env.SMTP_CATCHER_PORT ?? 2525),
  auth: { user: 'punctual', pass: randomBytes(12).toString('base64url') },
});
console.log(`mail catcher listening; give the workers SMTP_URL='${catcher.url}', and the web app PUNCTUAL_MAILBOX=1 to read what it catches at /mailbox`);
// SIGINT/SIGTERM: close (an SMTP client's idle pooled connection may hold that up: exit after 3 s regardless).
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    setTimeout(() => process.exit(0), 3_000).unref();
    void catcher.close().then(() => handle.close()).then(() => process.exit(0));
  });
}
