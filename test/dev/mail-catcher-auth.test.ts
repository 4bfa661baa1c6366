/**
 * The built-in mail catcher takes mail only from the app (issue #12): a local client that does not log in with the
 * catcher's password cannot put a message in a tenant's mailbox; the worker's SMTP channel, given the catcher's URL
 * (which carries the login, as `npm start` hands it to the worker), still delivers.
 */
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpChannel } from '@/channels/smtp';
import { caughtMessages } from '@/db/schema';
import { startMailCatcher, type MailCatcher } from '@/dev/mail-catcher';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';

let tdb: TestDatabase;
let catcher: MailCatcher;
beforeAll(async () => {
  tdb = await createTestDatabase();
  catcher = await startMailCatcher({ db: tdb.db, auth: { user: 'punctual', pass: 'per-data-folder-secret' } });
});
afterAll(async () => {
  await catcher?.close();
  await tdb?.close();
});

const forged = 'From: "Acme" <hi@acme.test>\r\nTo: ana@example.test\r\nSubject: Your booking was cancelled\r\n\r\nforged\r\n';

/** Sends `forged` over a raw SMTP session, logging in with `auth` first when given; resolves with the error's reply code. */
function sendRaw(auth?: { user: string; pass: string }): Promise<{ responseCode?: number; response?: string } | 'accepted'> {
  const conn = new SMTPConnection({ host: '127.0.0.1', port: catcher.port, ignoreTLS: true });
  return new Promise((resolve, reject) => {
    const done = (r: { responseCode?: number; response?: string } | 'accepted') => {
      conn.close();
      resolve(r);
    };
    conn.once('error', reject);
    conn.connect(() => {
      const send = () => conn.send({ from: 'hi@acme.test', to: ['ana@example.test'] }, forged, (err) => done(err ? (err as { responseCode?: number; response?: string }) : 'accepted'));
      if (!auth) return send();
      conn.login(auth, (err) => (err ? done(err as { responseCode?: number; response?: string }) : send()));
    });
  });
}

describe('mail catcher: only the app may deliver', () => {
  it('refuses mail from a client that does not log in (530) or logs in wrongly (535), and stores nothing', async () => {
    expect(await sendRaw()).toMatchObject({ responseCode: 530 });
    expect(await sendRaw({ user: 'punctual', pass: 'guess' })).toMatchObject({ responseCode: 535 });
    expect(await sendRaw({ user: 'postgres', pass: 'per-data-folder-secret' })).toMatchObject({ responseCode: 535 });
    expect(await tdb.db.select().from(caughtMessages)).toEqual([]);
  });

  it('takes the app’s mail: the URL carries the login, and the worker’s SMTP channel delivers with it', async () => {
    expect(catcher.url).toBe(`smtp://punctual:per-data-folder-secret@127.0.0.1:${catcher.port}?ignoreTLS=true`);
    const smtp = createSmtpChannel({ url: catcher.url });
    try {
      const r = await smtp.send(
        { tenantId: '00000000-0000-4000-8000-00000000a11a', from: { name: 'Acme', address: 'hi@acme.test' }, to: { name: 'Ana', address: 'ana@example.test' }, subject: 'Reminder: Clay', html: '<p>hi</p>', text: 'hi', messageId: '<r1@acme.test>', headers: {} },
        { idempotencyKey: 'r1' },
      );
      expect(r).toMatchObject({ class: 'accepted' });
    } finally {
      await smtp.close();
    }
    expect((await tdb.db.select().from(caughtMessages)).map((m) => [m.subject, m.envelopeTo])).toEqual([['Reminder: Clay', ['ana@example.test']]]);
    // The right login over a raw session works too: the refusals above are about the login, not the client.
    expect(await sendRaw({ user: 'punctual', pass: 'per-data-folder-secret' })).toBe('accepted');
  });
});
