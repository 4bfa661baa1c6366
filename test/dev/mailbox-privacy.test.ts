/**
 * The development mailbox shows each message only to whom it may concern, and a caught message belongs to the
 * tenant that sent it — end to end against real PostgreSQL, the real queue and worker tasks, the real SMTP catcher
 * and SMS API, better-auth's real endpoints and the mailbox's real API routes (app/api/mailbox/…) with real
 * session cookies. The pages read through the same use-cases (dev/caught-mail.ts) the list and detail are
 * checked with here; e2e/mailbox-privacy.spec.ts looks at them in a browser.
 *
 * Scenarios:
 *   - a viewer asks for a password reset for an admin of the same tenant: the reset mail is not in the viewer's
 *     list, its page, raw source or attachments answer 404 — the token appears in no answer —; the admin, signed
 *     in as themself, finds the link in their mailbox and it works;
 *   - a reminder with preference and unsubscribe links: staff see it with every credential masked in the list, the
 *     detail (headers, HTML, text), the raw source and the calendar attachments; the participant's links still work
 *     from the message as sent;
 *   - two organisations with the same sender address and no SMS sender of their own: each sees exactly its own
 *     messages in every tab, and the other's message id answers 404;
 *   - the mailbox is off unless PUNCTUAL_MAILBOX says so: its API answers 404.
 */
import { hashPassword } from 'better-auth/crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmsChannel } from '@/channels/sms';
import { insertStaffUser } from '@/db/queries/accounts/staff';
import { caughtMessages, notificationSettings, tenants, type Tenant } from '@/db/schema';
import { preferencesSecret } from '@/server/sending/preference-link';
import { caughtMessageFor, caughtMessageRawFor, mailboxPage, readCaughtMailParts } from '@/dev/caught-mail';
import { startSmsCatcher, type SmsCatcher } from '@/dev/sms-catcher';
import { createTenant } from '@/server/organisations/tenants';
import { unsubscribeSecrets } from '@/server/sending/unsubscribe-link';
import { startAuthServer, type AuthServer } from '@/test/support/auth-http';
import { eventWithBooking, tenantWithRules } from '@/test/support/fixtures';
import { createHarness, type Harness } from '@/test/support/harness';

const SESSION = 'test-secret-for-password-links-0123456789';
const PASSWORD = 'a-long-enough-password-1';
const ADMIN = 'ada.admin@studio.example';
const VIEWER = 'vic.viewer@studio.example';

let h: Harness;
let auth: AuthServer;
let sms: SmsCatcher;
let studio: Tenant;
const savedMailbox = process.env.PUNCTUAL_MAILBOX;

type RouteGet = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
let rawRoute: RouteGet;
let attachmentRoute: RouteGet;

/** A session cookie for `email` (better-auth's real sign-in). */
async function signIn(email: string, from: string): Promise<string> {
  const r = await auth.post(from, '/sign-in/email', { email, password: PASSWORD });
  expect(r.status).toBe(200);
  return r.cookie;
}

/** Every answer the mailbox API gives `cookie` for message `id`: the raw source and attachments 0–2. */
async function apiAnswers(cookie: string, id: string): Promise<{ status: number; body: string }[]> {
  const headers = { cookie, 'sec-fetch-site': 'same-origin' };
  const out = [];
  const raw = await rawRoute(new Request(`http://127.0.0.1/api/mailbox/${id}/raw`, { headers }), { params: Promise.resolve({ id }) });
  out.push({ status: raw.status, body: await raw.text() });
  for (const index of ['0', '1', '2']) {
    const a = await attachmentRoute(new Request(`http://127.0.0.1/api/mailbox/${id}/attachments/${index}`, { headers }), { params: Promise.resolve({ id, index }) });
    out.push({ status: a.status, body: await a.text() });
  }
  return out;
}

beforeAll(async () => {
  process.env.PUNCTUAL_MAILBOX = '1';
  h = await createHarness({
    deps: { links: { publicUrl: 'http://punctual.test', secret: preferencesSecret({ BETTER_AUTH_SECRET: SESSION }), unsubscribeSecret: unsubscribeSecrets({ BETTER_AUTH_SECRET: SESSION })[0] } },
  });
  h.clock.set(new Date());
  auth = await startAuthServer(h.tdb.url);
  rawRoute = (await import('@/app/api/mailbox/[id]/raw/route')).GET as unknown as RouteGet;
  attachmentRoute = (await import('@/app/api/mailbox/[id]/attachments/[index]/route')).GET as unknown as RouteGet;
  sms = await startSmsCatcher({ db: h.tdb.db, accountSid: `AC${'cd'.repeat(16)}`, authToken: 'privacy-token' });
  ({ tenant: studio } = await tenantWithRules(h.tdb.db, [{ offset: '-PT1H', window: 3600 }], 'Europe/Amsterdam'));
  await h.tdb.db.update(tenants).set({ senderEmail: 'hello@studio.example', name: 'Studio' }).where(eq(tenants.id, studio.id));
  const hash = await hashPassword(PASSWORD);
  await insertStaffUser(h.tdb.db, { tenantId: studio.id, email: ADMIN, name: 'Ada Admin', role: 'admin', passwordHash: hash });
  await insertStaffUser(h.tdb.db, { tenantId: studio.id, email: VIEWER, name: 'Vic Viewer', role: 'viewer', passwordHash: hash });
});

afterAll(async () => {
  if (savedMailbox === undefined) delete process.env.PUNCTUAL_MAILBOX;
  else process.env.PUNCTUAL_MAILBOX = savedMailbox;
  await sms?.close();
  await auth?.close();
  await h?.close();
});

describe('a credential is shown only to its recipient', () => {
  it("a viewer asks for an admin's reset: the token is in none of the viewer's answers; the admin sees it and it works", async () => {
    const viewerCookie = await signIn(VIEWER, '127.0.0.41');
    expect((await auth.post('127.0.0.41', '/request-password-reset', { email: ADMIN })).status).toBe(200);
    await h.drain();
    const [reset] = (await h.caught()).filter((m) => m.envelopeTo.includes(ADMIN));
    expect(reset).toBeTruthy();
    expect(reset).toMatchObject({ tenantId: studio.id, accountMail: true });
    const token = /set-password\?token=([A-Za-z0-9_-]+)/.exec(reset.text ?? '')![1];
    expect(token.length).toBeGreaterThan(20);

    // The viewer: not listed, no page, no raw source, no attachment — nothing anywhere carries the token.
    const viewer = { tenantId: studio.id, viewerEmail: VIEWER };
    const list = await mailboxPage(h.tdb.db, viewer, 'email', { limit: 50, offset: 0 });
    expect(list.items.map((m) => m.id)).not.toContain(reset.id);
    expect(JSON.stringify(list)).not.toContain(token);
    expect(await caughtMessageFor(h.tdb.db, viewer, reset.id)).toBeNull();
    const answers = await apiAnswers(viewerCookie, reset.id);
    expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 404]);
    for (const a of answers) expect(a.body).not.toContain(token);

    // The admin, signed in as themself: listed, the link readable in the detail and the raw source.
    const adminCookie = await signIn(ADMIN, '127.0.0.42');
    const admin = { tenantId: studio.id, viewerEmail: ADMIN };
    expect((await mailboxPage(h.tdb.db, admin, 'email', { limit: 50, offset: 0 })).items.map((m) => m.id)).toContain(reset.id);
    expect((await caughtMessageFor(h.tdb.db, admin, reset.id))?.text).toContain(token);
    const [raw] = await apiAnswers(adminCookie, reset.id);
    expect(raw.status).toBe(200);
    // The text part may be quoted-printable (soft line breaks): compare on the decoded message.
    expect((await caughtMessageRawFor(h.tdb.db, admin, reset.id))?.raw).toBe(reset.raw);
    expect(await auth.post('127.0.0.42', '/reset-password', { token, newPassword: 'the-admins-new-password-2' })).toMatchObject({ status: 200 });
  });

  it('a reminder with preference and unsubscribe links: staff see every credential masked, everywhere', async () => {
    const participant = 'pat.participant@example.test';
    const booked = new Date(Date.now() - 60_000);
    const startsAt = new Date(Date.now() + 30 * 60_000).toISOString();
    await eventWithBooking(h.tdb.db, studio.id, { startsAt, timeZone: 'Europe/Amsterdam', title: 'Clay night' }, booked, { email: participant, name: 'Pat' });
    await h.tick(new Date());
    const [reminder] = (await h.caught()).filter((m) => m.envelopeTo.includes(participant));
    expect(reminder).toMatchObject({ tenantId: studio.id, accountMail: false });
    const secrets = [
      ...[...(reminder.text ?? '').matchAll(/http:\/\/punctual\.test\/(?:u|preferences)\/([^\s>"]+)/g)].map((m) => m[1]),
      ...[...((reminder.headers as Record<string, string>)['list-unsubscribe'] ?? '').matchAll(/\/u\/([^>]+)>/g)].map((m) => m[1]),
    ];
    expect(secrets.length).toBeGreaterThanOrEqual(2);

    const viewer = { tenantId: studio.id, viewerEmail: VIEWER };
    const listed = await mailboxPage(h.tdb.db, viewer, 'email', { limit: 50, offset: 0 });
    expect(listed.items.map((m) => m.id)).toContain(reminder.id);
    const view = await caughtMessageFor(h.tdb.db, viewer, reminder.id);
    expect(view?.html).toContain('•'.repeat(10));
    expect(view?.html).not.toMatch(/\shref="http:\/\/punctual\.test\/(u|preferences)\//);
    const answers = await apiAnswers(await signIn(VIEWER, '127.0.0.43'), reminder.id);
    expect(answers[0].status).toBe(200);
    const everything = JSON.stringify(listed) + JSON.stringify(view) + answers.map((a) => a.body).join('\n');
    for (const s of secrets) expect(everything).not.toContain(s);
    // The masked source is still a readable message: its parts parse, and the masks are in them.
    const parts = await readCaughtMailParts(answers[0].body);
    expect(parts.attachments.length).toBeGreaterThanOrEqual(0);
    expect(answers[0].body).toContain('List-Unsubscribe: <http://punctual.test/u/••••');

    // Search finds it by recipient (any case), subject and Message-ID (with its brackets, as the delivery page shows
    // it); never by a body, so a link's secret cannot be probed.
    const found = async (q: string) => (await mailboxPage(h.tdb.db, viewer, 'email', { limit: 50, offset: 0 }, q)).items.map((m) => m.id);
    expect(await found('PAT.participant@')).toEqual([reminder.id]);
    expect(await found('Clay night')).toContain(reminder.id);
    expect(reminder.messageId).toMatch(/^<.+>$/);
    expect(await found(reminder.messageId!)).toEqual([reminder.id]);
    expect(await found(secrets[0]!.slice(0, 16))).toEqual([]);
    expect(await found('%')).toEqual([]);
    expect(await found('nobody-like-this@')).toEqual([]);
  });
});

describe('a caught message belongs to the tenant that sent it', () => {
  it('two organisations with the same sender address and no SMS sender each see exactly their own, in every tab', async () => {
    const [one, two] = [
      await createTenant(h.tdb.db, { slug: 'same-one', name: 'Same One', timeZone: 'UTC', senderEmail: 'shared@same.example' }),
      await createTenant(h.tdb.db, { slug: 'same-two', name: 'Same Two', timeZone: 'UTC', senderEmail: 'SHARED@same.example' }),
    ];
    await h.tdb.db.insert(notificationSettings).values([
      { tenantId: one.id, policy: {} },
      { tenantId: two.id, policy: {} },
    ]);
    // Email through the real SMTP channel, SMS through the real SMS adapter from the one default sender.
    for (const t of [one, two]) {
      const outcome = await h.ctx.channel.send(
        { tenantId: t.id, from: { name: t.name, address: 'shared@same.example' }, to: { name: 'Kim', address: `kim+${t.slug}@example.test` }, subject: `From ${t.name}`, html: '<p>hi</p>', text: 'hi', messageId: `<${t.slug}@same.example>` },
        { idempotencyKey: t.slug },
      );
      expect(outcome).toMatchObject({ class: 'accepted' });
      const channel = createSmsChannel({ baseUrl: sms.url, accountSid: sms.accountSid, authToken: sms.authToken, timeoutMs: 3000 });
      expect(await channel.send({ tenantId: t.id, from: 'Punctual', to: '+31612345678', body: `SMS from ${t.name}`, statusCallbackUrl: null, messageKey: t.slug }, { idempotencyKey: t.slug })).toMatchObject({ class: 'accepted' });
    }
    for (const [me, them] of [
      [one, two],
      [two, one],
    ]) {
      const viewer = { tenantId: me.id, viewerEmail: `staff@${me.slug}.example` };
      const email = await mailboxPage(h.tdb.db, viewer, 'email', { limit: 50, offset: 0 });
      const texts = await mailboxPage(h.tdb.db, viewer, 'sms', { limit: 50, offset: 0 });
      const hooks = await mailboxPage(h.tdb.db, viewer, 'webhook', { limit: 50, offset: 0 });
      expect(email.counts).toEqual({ email: 1, sms: 1, webhook: 0 });
      expect(email.items.map((m) => m.subject)).toEqual([`From ${me.name}`]);
      expect(texts.items.map((m) => m.text)).toEqual([`SMS from ${me.name}`]);
      expect(hooks.total).toBe(0);
      // The other's messages answer 404 through every lookup.
      const theirs = await h.tdb.db.select({ id: caughtMessages.id }).from(caughtMessages).where(eq(caughtMessages.tenantId, them.id));
      expect(theirs).toHaveLength(2);
      for (const { id } of theirs) {
        expect(await caughtMessageFor(h.tdb.db, viewer, id)).toBeNull();
        expect(await caughtMessageRawFor(h.tdb.db, viewer, id)).toBeNull();
      }
    }
  });

  it('a message whose declaration is missing or doubled is nobody’s', async () => {
    const raw = (headers: string) =>
      `From: a@b.example\r\nTo: c@d.example\r\nSubject: forged\r\nMessage-ID: <f${Math.random()}@b.example>\r\n${headers}Content-Type: text/plain\r\n\r\nhello\r\n`;
    const { createTransport } = await import('nodemailer');
    const transport = createTransport({ host: '127.0.0.1', port: h.catcher.port, ignoreTLS: true, auth: h.catcher.auth });
    try {
      await transport.sendMail({ envelope: { from: 'a@b.example', to: ['c@d.example'] }, raw: raw(`X-Punctual-Tenant: ${studio.id}\r\nX-Punctual-Tenant: ${studio.id}\r\n`) });
      await transport.sendMail({ envelope: { from: 'a@b.example', to: ['c@d.example'] }, raw: raw('') });
    } finally {
      transport.close();
    }
    const forged = await h.tdb.db.select({ tenantId: caughtMessages.tenantId }).from(caughtMessages).where(eq(caughtMessages.subject, 'forged'));
    expect(forged).toEqual([{ tenantId: null }, { tenantId: null }]);
  });
});

describe('the mailbox exists only where it is turned on', () => {
  it('PUNCTUAL_MAILBOX unset or 0: the API answers 404 even to a signed-in admin', async () => {
    const [any] = await h.caught();
    const cookie = await signIn(VIEWER, '127.0.0.44');
    for (const value of [undefined, '0']) {
      if (value === undefined) delete process.env.PUNCTUAL_MAILBOX;
      else process.env.PUNCTUAL_MAILBOX = value;
      expect((await apiAnswers(cookie, any.id)).map((a) => a.status)).toEqual([404, 404, 404, 404]);
    }
    process.env.PUNCTUAL_MAILBOX = '1';
  });
});
