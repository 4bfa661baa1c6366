/**
 * A sender address is proven before mail goes out in its name — against real PostgreSQL, the real graphile-worker
 * queue, the real SMTP catcher and the fake HTTP email API:
 * - another organisation's address (in any case) is refused, naming `senderEmail` — a partnership does not change it;
 * - an unproven address is saved as unverified, a verification link is mailed to it (From the deployment's address),
 *   and the next reminder goes From the deployment's default sender (envelope too) with Reply-To that address;
 * - after the link is confirmed by an admin of that organisation, the From is the organisation's own; a link of
 *   another organisation, or for an address the organisation no longer has, does nothing;
 * - "send a test message" goes only to the organisation's own staff;
 * - a display name like `Atelier "De Klei", Gent (Oost)` reaches both providers as ONE mailbox with exactly that name
 *   (a strict RFC 5322 parser).
 */
import addrs from 'email-addresses';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHttpEmailChannel } from '@/channels/http-email';
import { insertStaffUser } from '@/db/queries/accounts/staff';
import { auditLog, orgTestMessages, senderVerifications, tenants } from '@/db/schema';
import type { SenderIdentityConfig } from '@/domain/organisations/sender-identity';
import { parseVerpAddress } from '@/domain/sending/verp';
import { AppError } from '@/server/platform/errors';
import { readOrgSettings, requestTestMessage, saveOrgSettings } from '@/server/organisations/org-settings';
import { confirmSenderVerification, resendSenderVerification } from '@/server/organisations/sender-identity';
import { allowGuestsFrom, createTenant } from '@/server/organisations/tenants';
import { createReminderRule } from '@/server/rules/reminder-rule';
import { eventWithBooking } from '@/test/support/fixtures';
import { createHarness, type Harness } from '@/test/support/harness';
import { startHttpPeer, type HttpPeer } from '@/test/support/http-peer';
import { inviteStaffAction } from '@/server/accounts/staff-invitations';

const cfg: SenderIdentityConfig = { defaultSender: 'noreply@punctual.local', allowedDomains: ['punctual.local'] };
const VERP_KEY = 'sender-identity-test-key';

let h: Harness;
let peer: HttpPeer;
beforeAll(async () => {
  peer = await startHttpPeer();
  const http = createHttpEmailChannel({ baseUrl: peer.url, apiKey: peer.apiKey });
  h = await createHarness({ deps: { senderIdentity: cfg, bounceKey: VERP_KEY, channels: { http_api: http } } });
});
afterAll(async () => {
  await h?.close();
  await peer?.close();
});
const now = new Date('2027-06-01T09:00:00Z');
beforeEach(async () => {
  await h.tdb.reset();
  peer.messages.length = 0;
  // The worker's clock at the moment the settings are saved (a link is sent only before it expires).
  h.clock.set(now);
});

const db = () => h.tdb.db;
let n = 0;

async function admin(tenantId: string, role: 'admin' | 'staff' = 'admin', at = now) {
  const email = `${role}${++n}@example.test`;
  const id = await insertStaffUser(db(), { tenantId, email, name: `Admin ${n}`, role, passwordHash: 'not-used' });
  return { tenantId, actor: email, actorId: id!, now: at, publicUrl: 'http://app.test' };
}

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const r = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(r).toBeInstanceOf(AppError);
  return r as AppError;
}

const form = (s: Awaited<ReturnType<typeof readOrgSettings>>, over: Record<string, unknown> = {}) => ({
  name: s.name,
  timeZone: s.timeZone,
  senderName: s.senderName,
  senderEmail: s.senderEmail,
  replyTo: s.replyTo,
  locale: s.locale,
  emailProvider: s.emailProvider,
  version: s.version,
  ...over,
});

/** The demo and partner organisations as the seed makes them (operator-created, partner lets demo book its guests). */
async function demoAndPartner(opts: { demoName?: string; provider?: 'smtp' | 'http_api' } = {}) {
  const demo = await createTenant(db(), { slug: `demo${++n}`, name: opts.demoName ?? 'Punctual Demo Studio', timeZone: 'Europe/Amsterdam', senderEmail: `reminders@demo${n}.punctual.local`, emailProvider: opts.provider ?? 'smtp' });
  const partner = await createTenant(db(), { slug: `partner${n}`, name: 'Partner Collective', timeZone: 'Europe/London', senderEmail: `hello@partner${n}.punctual.local` });
  await allowGuestsFrom(db(), partner.id, demo.id);
  await createReminderRule(db(), demo.id, { name: 'Hour before', anchor: 'start', offset: '-PT1H', audience: ['attendee'], template: 'attendee-reminder', lateSendWindowSeconds: 3600 });
  return { demo, partner };
}

/** The raw message's header `name`, unfolded (RFC 5322 §2.2.3). */
function header(raw: string, name: string): string | null {
  const m = new RegExp(`^${name}: (.*(?:\\r?\\n[ \\t].*)*)`, 'mi').exec(raw);
  return m ? m[1]!.replace(/\r?\n(?=[ \t])/g, '') : null;
}

/** A strict RFC 5322 parse of an address list: each mailbox's display name and address. */
function mailboxes(s: string): { name: string | null; address: string }[] | null {
  const r = addrs.parseAddressList({ input: s, strict: true, rejectTLD: false } as never);
  return r ? r.map((a) => (a.type === 'mailbox' ? { name: a.name, address: a.address } : { name: a.name, address: '(group)' })) : null;
}

describe('another organisation’s address', () => {
  it('is refused in any case, naming senderEmail — even between partners, allowlisted or verified by the operator', async () => {
    const { demo, partner } = await demoAndPartner();
    const a = await admin(demo.id);
    const shouting = partner.senderEmail.replace(/^hello/, 'HELLO'); // HELLO@partnerN.punctual.local
    for (const c of [cfg, { ...cfg, allowedDomains: [] }]) {
      const r = await refusal(saveOrgSettings(db(), a, form(await readOrgSettings(db(), demo.id, c), { senderEmail: shouting }), c));
      expect([r.httpStatus, r.field]).toEqual([409, 'senderEmail']);
      expect(r.message).toMatch(/^senderEmail: .* is another organisation’s verified sender address/);
    }
    const [row] = await db().select().from(tenants).where(eq(tenants.id, demo.id));
    expect(row.senderEmail).toBe(demo.senderEmail);
  });
});

describe('another organisation’s mailbox or domain', () => {
  it('a subaddress of its address, or another mailbox at a domain it proved, is refused; the shared operator domain is not anyone’s', async () => {
    const { demo, partner } = await demoAndPartner();
    const a = await admin(demo.id);
    const domain = partner.senderEmail.split('@')[1]!; // partnerN.punctual.local
    for (const taken of [`hello+x@${domain}`, `billing@${domain}`, `HELLO+news@${domain.toUpperCase()}`]) {
      const r = await refusal(saveOrgSettings(db(), a, form(await readOrgSettings(db(), demo.id, cfg), { senderEmail: taken }), cfg));
      expect([r.httpStatus, r.field], taken).toEqual([409, 'senderEmail']);
    }
    // An organisation that proved a domain by link owns it too.
    await db().update(tenants).set({ senderEmail: 'news@studio-owned.example', senderVerifiedEmail: 'news@studio-owned.example', senderVerifiedVia: 'link' }).where(eq(tenants.id, partner.id));
    expect((await refusal(saveOrgSettings(db(), a, form(await readOrgSettings(db(), demo.id, cfg), { senderEmail: 'sales@studio-owned.example' }), cfg))).httpStatus).toBe(409);
    // The operator's shared domain (an entry of the list) holds one mailbox per organisation.
    await db().update(tenants).set({ senderEmail: 'team@punctual.local', senderVerifiedEmail: null }).where(eq(tenants.id, partner.id));
    await saveOrgSettings(db(), a, form(await readOrgSettings(db(), demo.id, cfg), { senderEmail: 'desk@punctual.local' }), cfg);
    const [row] = await db().select().from(tenants).where(eq(tenants.id, demo.id));
    expect(row.senderEmail).toBe('desk@punctual.local');
  });
});

describe('verification mail', () => {
  it('saving one address after another mails one link a minute, however often the address changes', async () => {
    const { demo } = await demoAndPartner();
    const a = await admin(demo.id);
    // Five saves in a row, ending on the address the first link was for (a link for an address no longer the
    // organisation's is not mailed at all).
    for (let i = 0; i < 5; i++) {
      await saveOrgSettings(db(), a, form(await readOrgSettings(db(), demo.id, cfg), { senderEmail: `victim${i % 2}@target.example` }), cfg);
    }
    await h.drain();
    expect((await h.caught()).filter((m) => m.accountMail)).toHaveLength(1);
    // A minute later the next save mails again.
    const later = { ...a, now: new Date(now.getTime() + 61_000) };
    h.clock.set(later.now);
    await saveOrgSettings(db(), later, form(await readOrgSettings(db(), demo.id, cfg), { senderEmail: 'victim2@target.example' }), cfg);
    await h.drain();
    expect((await h.caught()).filter((m) => m.accountMail)).toHaveLength(2);
  });

  it('a staff invitation of an organisation whose address is unproven goes from the default sender, Reply-To the address', async () => {
    const { demo } = await demoAndPartner();
    const a = await admin(demo.id);
    await saveOrgSettings(db(), a, form(await readOrgSettings(db(), demo.id, cfg), { senderEmail: 'ceo@bank.example' }), cfg);
    await inviteStaffAction(db(), a, { name: 'New Person', email: 'new.person@example.org', role: 'staff' }, 'http://app.test');
    await h.drain();
    const invitation = (await h.caught()).find((m) => m.envelopeTo.includes('new.person@example.org'))!;
    expect(mailboxes(header(invitation.raw, 'From')!)).toEqual([{ name: 'Punctual Demo Studio', address: cfg.defaultSender }]);
    expect(header(invitation.raw, 'Reply-To')).toContain('ceo@bank.example');
    expect(invitation.envelopeFrom).not.toContain('bank.example');
  });
});

describe('two organisations at once', () => {
  it('saving the same address at one of the sender domains at once: exactly one wins, the other is a 409', async () => {
    const { demo, partner } = await demoAndPartner();
    const [a, b] = [await admin(demo.id), await admin(partner.id)];
    const address = `shared${n}@studio.punctual.local`;
    const results = await Promise.allSettled([
      saveOrgSettings(db(), a, form(await readOrgSettings(db(), demo.id, cfg), { senderEmail: address }), cfg),
      saveOrgSettings(db(), b, form(await readOrgSettings(db(), partner.id, cfg), { senderEmail: address.toUpperCase() }), cfg),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect([lost.reason.httpStatus, lost.reason.field]).toEqual([409, 'senderEmail']);
    const holders = await h.tdb.sql<{ n: number }[]>`select count(*)::int as n from tenants where lower(sender_email) = ${address}`;
    expect(holders[0]!.n).toBe(1);
  });

  it('a save waits for the address lock held by another organisation’s save in progress, then sees it and is refused', async () => {
    const { demo, partner } = await demoAndPartner();
    const a = await admin(demo.id);
    const address = `desk${n}@studio.punctual.local`;
    const opened = form(await readOrgSettings(db(), demo.id, cfg), { senderEmail: address });
    let save: Promise<unknown> = Promise.resolve(null);
    await h.tdb.sql.begin(async (tx) => {
      // Another organisation's save of the same address, not committed yet: it holds the address lock.
      await tx`select pg_advisory_xact_lock(hashtext(${`sender_address:studio.punctual.local`}))`; // the address's domain
      await tx`update tenants set sender_email = ${address} where id = ${partner.id}`;
      save = saveOrgSettings(db(), a, opened, cfg).catch((e: unknown) => e);
      // Until it commits, the demo studio's save waits on that lock (polled, no fixed sleep).
      for (let i = 0; ; i++) {
        const [w] = await h.tdb.sql<{ n: number }[]>`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`;
        if (w!.n > 0) break;
        if (i > 500) throw new Error('the save never waited for the address lock');
        await new Promise((r) => setTimeout(r, 10));
      }
    });
    const r = (await save) as unknown as AppError;
    expect(r).toBeInstanceOf(AppError);
    expect([r.httpStatus, r.field]).toEqual([409, 'senderEmail']);
  });

  it('confirming links for the same address: exactly one organisation owns it', async () => {
    const { demo, partner } = await demoAndPartner();
    const [a, b] = [await admin(demo.id), await admin(partner.id)];
    await saveOrgSettings(db(), a, form(await readOrgSettings(db(), demo.id, cfg), { senderEmail: 'both@unverified.example' }), cfg);
    await saveOrgSettings(db(), b, form(await readOrgSettings(db(), partner.id, cfg), { senderEmail: 'Both@Unverified.example' }), cfg);
    await h.drain();
    const tokens = (await h.caught()).map((m) => /token=([A-Za-z0-9_-]+)/.exec(m.text ?? '')![1]!);
    expect(tokens).toHaveLength(2);
    // Each link belongs to its own organisation: try both links with both admins, at once.
    const results = await Promise.allSettled(tokens.flatMap((t) => [confirmSenderVerification(db(), a, { token: t }, cfg), confirmSenderVerification(db(), b, { token: t }, cfg)]));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const owners = await h.tdb.sql<{ id: string }[]>`select id from tenants where sender_verified_email = 'both@unverified.example'`;
    expect(owners).toHaveLength(1);
  });
});

describe('an unverified address', () => {
  it('is saved as unverified; the next reminder goes from the default sender (From and envelope) with Reply-To it; after the link, from the organisation', async () => {
    const { demo, partner } = await demoAndPartner();
    const a = await admin(demo.id);
    // Booked BEFORE the change: From is decided when the reminder is sent, not when it was planned.
    await eventWithBooking(db(), demo.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam', title: 'Pottery' }, now, { email: 'pat@example.test' });
    await eventWithBooking(db(), demo.id, { startsAt: '2027-06-16T08:00:00Z', timeZone: 'Europe/Amsterdam', title: 'Glaze' }, now, { email: 'sam@example.test' });

    const saved = await saveOrgSettings(db(), a, form(await readOrgSettings(db(), demo.id, cfg), { senderEmail: 'news@unverified.example' }), cfg);
    expect(saved.senderEmail).toBe('news@unverified.example');
    expect(saved.verificationSent).toBe(true);
    expect(saved.sender).toMatchObject({ proof: 'unverified', from: 'noreply@punctual.local', replyTo: 'news@unverified.example' });
    expect(saved.sender!.sentence).toBe('news@unverified.example is not verified yet: mail goes out from noreply@punctual.local with Reply-To news@unverified.example.');

    // The verification link goes out by a worker, From the deployment's own address, To the address.
    await h.drain();
    const [link] = await h.caught();
    expect(link.envelopeTo).toEqual(['news@unverified.example']);
    expect(header(link.raw, 'From')).toBe('Punctual Demo Studio <noreply@punctual.local>');
    const url = /http:\/\/app\.test\/settings\/verify-sender\?token=([A-Za-z0-9_-]+)/.exec(link.text ?? '')!;
    expect(url).not.toBeNull();
    const [stored] = await db().select().from(senderVerifications);
    expect(stored.tokenHash).not.toContain(url[1]);

    // The reminder: From and envelope at the default sender, Reply-To the unverified address.
    await h.tick('2027-06-15T07:00:00Z');
    const first = (await h.caught()).find((m) => m.envelopeTo.includes('pat@example.test'))!;
    expect(header(first.raw, 'From')).toBe('Punctual Demo Studio <noreply@punctual.local>');
    expect(header(first.raw, 'Reply-To')).toBe('news@unverified.example');
    expect(first.envelopeFrom).toMatch(/^bounces\+[0-9a-f]{32}-[0-9a-f]{10}@punctual\.local$/);
    expect(parseVerpAddress(first.envelopeFrom!, VERP_KEY)).not.toBeNull();

    // Another organisation's admin cannot use the link; an admin of the demo studio can, once.
    const other = await admin(partner.id);
    expect((await refusal(confirmSenderVerification(db(), other, { token: url[1] }, cfg))).field).toBe('token');
    const done = await confirmSenderVerification(db(), a, { token: url[1] }, cfg);
    expect(done).toMatchObject({ proof: 'verified', from: 'news@unverified.example', replyTo: null });
    expect((await refusal(confirmSenderVerification(db(), a, { token: url[1] }, cfg))).message).toMatch(/used already/);
    const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.tenantId, demo.id), eq(auditLog.action, 'sender_verify')));
    expect(audit).toMatchObject({ actor: a.actor, details: { address: 'news@unverified.example' } });

    await h.tick('2027-06-16T07:00:00Z');
    const second = (await h.caught()).find((m) => m.envelopeTo.includes('sam@example.test'))!;
    expect(header(second.raw, 'From')).toBe('Punctual Demo Studio <news@unverified.example>');
    expect(header(second.raw, 'Reply-To')).toBeNull();
    expect(second.envelopeFrom).toMatch(/@unverified\.example$/);

    // Now it is the demo studio's: the partner cannot take it, in any case.
    const p = await admin(partner.id);
    const taken = await refusal(saveOrgSettings(db(), p, form(await readOrgSettings(db(), partner.id, cfg), { senderEmail: 'News@Unverified.EXAMPLE' }), cfg));
    expect([taken.httpStatus, taken.field]).toEqual([409, 'senderEmail']);
  });

  it('a link for an address the organisation no longer has does nothing; a new address forgets the old proof', async () => {
    const { demo } = await demoAndPartner();
    const a = await admin(demo.id);
    await saveOrgSettings(db(), a, form(await readOrgSettings(db(), demo.id, cfg), { senderEmail: 'old@unverified.example' }), cfg);
    await h.drain();
    const token = /token=([A-Za-z0-9_-]+)/.exec((await h.caught())[0]!.text ?? '')![1]!;
    await saveOrgSettings(db(), a, form(await readOrgSettings(db(), demo.id, cfg), { senderEmail: 'new@unverified.example' }), cfg);
    const r = await refusal(confirmSenderVerification(db(), a, { token }, cfg));
    expect(r.message).toBe('token: old@unverified.example is no longer your organisation’s sender address, so this link does nothing.');
    const [row] = await db().select().from(tenants).where(eq(tenants.id, demo.id));
    expect(row.senderVerifiedEmail).toBeNull();
    // "Send the link again": once a minute.
    const later = { ...a, now: new Date(now.getTime() + 61_000) };
    expect((await resendSenderVerification(db(), later, cfg)).link).toMatchObject({ used: false });
    expect((await refusal(resendSenderVerification(db(), later, cfg))).httpStatus).toBe(429);
  });

  it('an address at one of the operator’s sender domains needs no link (and stops counting when the domain leaves the list)', async () => {
    const { demo } = await demoAndPartner();
    const a = await admin(demo.id);
    const saved = await saveOrgSettings(db(), a, form(await readOrgSettings(db(), demo.id, cfg), { senderEmail: 'desk@studio.punctual.local' }), cfg);
    expect(saved).toMatchObject({ verificationSent: false, sender: { proof: 'allowlist', from: 'desk@studio.punctual.local' } });
    expect((await readOrgSettings(db(), demo.id, { ...cfg, allowedDomains: [] })).sender).toMatchObject({ proof: 'unverified', from: 'noreply@punctual.local' });
  });
});

describe('send a test message', () => {
  it('goes only to a staff member of the organisation (any case), else 400 naming `to`', async () => {
    const { demo, partner } = await demoAndPartner();
    const a = await admin(demo.id);
    const colleague = await admin(demo.id, 'staff');
    const outsider = await admin(partner.id);
    for (const to of ['someone@example.test', outsider.actor]) {
      const r = await refusal(requestTestMessage(db(), a, { to }));
      expect([r.httpStatus, r.field]).toEqual([400, 'to']);
      expect(r.message).toMatch(/^to: a test message goes only to a staff member of your organisation/);
    }
    expect(await db().select().from(orgTestMessages)).toHaveLength(0);
    const ok = await requestTestMessage(db(), a, { to: colleague.actor.toUpperCase() });
    expect(ok.to).toBe(colleague.actor);
    expect((await readOrgSettings(db(), demo.id, cfg)).staffAddresses).toEqual(expect.arrayContaining([a.actor, colleague.actor]));
  });
});

describe('a display name is quoted per RFC 5322 on both channels', () => {
  const NAME = 'Atelier "De Klei", Gent (Oost)';

  it('SMTP: the From header is one mailbox whose display name is exactly the organisation’s name', async () => {
    const { demo } = await demoAndPartner({ demoName: NAME });
    await eventWithBooking(db(), demo.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam' }, now, { email: 'pat@example.test' });
    await h.tick('2027-06-15T07:00:00Z');
    const [m] = await h.caught();
    expect(mailboxes(header(m.raw, 'From')!)).toEqual([{ name: NAME, address: demo.senderEmail }]);
  });

  it('HTTP email API: the `from` it receives is one mailbox whose display name is exactly the organisation’s name', async () => {
    const { demo } = await demoAndPartner({ demoName: NAME, provider: 'http_api' });
    await eventWithBooking(db(), demo.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam' }, now, { email: 'pat@example.test' });
    await h.tick('2027-06-15T07:00:00Z');
    expect(peer.messages).toHaveLength(1);
    expect(mailboxes(peer.messages[0]!.from!)).toEqual([{ name: NAME, address: demo.senderEmail }]);
  });
});
