/**
 * Issue #13, the organisation settings page, against real PostgreSQL, the real graphile-worker queue and real SMTP:
 * a settings save is audited and version-checked (a stale save is a 409 that writes nothing, and nobody's change is
 * lost); a reminder sent after the change carries the new From name and Reply-To; "send a test message" goes through
 * a worker and records the provider's answer verbatim (250 from the mail catcher, a refusal from a fault-injecting
 * peer), at most one per 10 s; guest partnerships are agreed by both sides, audited on both, and a pending one never
 * lets the host book or write as the guest organisation.
 */
import { and, asc, eq } from 'drizzle-orm';
import { runOnce } from 'graphile-worker';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSmtpChannel } from '@/channels/smtp';
import { quietLogger } from '@/db/migrate';
import { insertStaffUser } from '@/db/queries/accounts/staff';
import { auditLog, deliveries, guestPartnerships, orgTestMessages, tenants } from '@/db/schema';
import { taskList } from '@/jobs/worker';
import { AppError } from '@/server/platform/errors';
import { readOrgSettings, requestTestMessage, saveOrgSettings } from '@/server/organisations/org-settings';
import { partnershipStepAction, readAgreements } from '@/server/organisations/partnerships';
import { addBooking } from '@/server/scheduling/bookings';
import { createEvent } from '@/server/scheduling/events';
import { allowGuestsFrom, createTenant } from '@/server/organisations/tenants';
import { createHarness, type Harness } from '@/test/support/harness';
import { startSmtpPeer, type SmtpPeer } from '@/test/support/smtp-peer';
import { eventWithBooking, tenantWithRules } from '@/test/support/fixtures';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());
beforeEach(async () => h.tdb.reset());

const db = () => h.tdb.db;
const now = new Date('2027-06-01T09:00:00Z');
let n = 0;

async function admin(tenantId: string, role: 'admin' | 'staff' | 'viewer' = 'admin', at = now) {
  const email = `${role}${++n}@example.test`;
  const id = await insertStaffUser(db(), { tenantId, email, name: `${role[0].toUpperCase()}${role.slice(1)} ${n}`, role, passwordHash: 'not-used' });
  return { tenantId, actor: email, actorId: id!, now: at };
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

const auditOf = (tenantId: string) => db().select().from(auditLog).where(eq(auditLog.tenantId, tenantId)).orderBy(asc(auditLog.createdAt));

describe('saving the settings', () => {
  it('updates, audits the changed fields before and after, and refuses a stale save without losing anyone’s change', async () => {
    const { tenant } = await tenantWithRules(db(), []);
    const ann = await admin(tenant.id);
    const bob = await admin(tenant.id);
    const opened = await readOrgSettings(db(), tenant.id);
    expect(opened).toMatchObject({ version: 1, senderName: null, effectiveSenderName: 'Test Org', replyTo: null, locale: 'en' });

    // Ann and Bob both opened version 1. Ann saves first.
    const saved = await saveOrgSettings(db(), ann, form(opened, { senderName: 'Test Org Front Desk', replyTo: 'desk@test-org.example' }));
    expect(saved).toMatchObject({ version: 2, senderName: 'Test Org Front Desk', effectiveSenderName: 'Test Org Front Desk', replyTo: 'desk@test-org.example', updatedBy: ann.actor });

    // Bob's save of version 1 is a 409 naming Ann, with the current settings; nothing of his is written.
    const stale = await refusal(saveOrgSettings(db(), bob, form(opened, { locale: 'nl' })));
    expect(stale.httpStatus).toBe(409);
    expect(stale.field).toBe('version');
    expect(stale.message).toMatch(/^The organisation settings was changed by Admin \d+ at /);
    expect((stale.details as { current: { senderName: string; version: number } }).current).toMatchObject({ senderName: 'Test Org Front Desk', version: 2 });
    expect(await readOrgSettings(db(), tenant.id)).toMatchObject({ version: 2, locale: 'en', senderName: 'Test Org Front Desk' });

    // On top of the latest version, both changes stand.
    const merged = await saveOrgSettings(db(), bob, form(await readOrgSettings(db(), tenant.id), { locale: 'nl-nl' }));
    expect(merged).toMatchObject({ version: 3, locale: 'nl-NL', senderName: 'Test Org Front Desk', replyTo: 'desk@test-org.example' });

    const entries = (await auditOf(tenant.id)).filter((e) => e.action === 'settings_update');
    expect(entries.map((e) => [e.actor, e.details])).toEqual([
      [ann.actor, { from: { senderName: null, replyTo: null }, to: { senderName: 'Test Org Front Desk', replyTo: 'desk@test-org.example' } }],
      [bob.actor, { from: { locale: 'en' }, to: { locale: 'nl-NL' } }],
    ]);

    // An unchanged save writes nothing and is not audited.
    expect((await saveOrgSettings(db(), ann, form(merged))).version).toBe(3);
    expect((await auditOf(tenant.id)).filter((e) => e.action === 'settings_update')).toHaveLength(2);
  });

  it('refuses bad values naming the field, and a staff member or viewer', async () => {
    const { tenant } = await tenantWithRules(db(), []);
    const a = await admin(tenant.id);
    const s = await readOrgSettings(db(), tenant.id);
    const bad = await refusal(saveOrgSettings(db(), a, form(s, { replyTo: 'nope' })));
    expect([bad.httpStatus, bad.field, bad.message]).toEqual([400, 'replyTo', 'replyTo: “nope” is not an email address (leave it empty for none)']);
    expect((await refusal(saveOrgSettings(db(), a, form(s, { timeZone: 'Europe/Atlantis' })))).field).toBe('timeZone');
    const staff = await admin(tenant.id, 'staff');
    expect((await refusal(saveOrgSettings(db(), staff, form(s, { name: 'Renamed' })))).httpStatus).toBe(403);
    expect((await readOrgSettings(db(), tenant.id)).name).toBe('Test Org');
  });

  it('the SMS segment limit: saved and audited, kept when a save leaves it out, and a refused value changes nothing', async () => {
    const { tenant } = await tenantWithRules(db(), []);
    const a = await admin(tenant.id);
    const s = await readOrgSettings(db(), tenant.id);
    expect(s.smsSegmentLimit).toBe(3);
    const bad = await refusal(saveOrgSettings(db(), a, form(s, { smsSegmentLimit: 11 })));
    expect([bad.httpStatus, bad.field]).toEqual([400, 'smsSegmentLimit']);
    const saved = await saveOrgSettings(db(), a, form(s, { smsSegmentLimit: '1' }));
    expect(saved).toMatchObject({ smsSegmentLimit: 1, version: 2 });
    // A client that does not know the field (no smsSegmentLimit in the body) keeps it.
    const renamed = await saveOrgSettings(db(), a, form(saved, { name: 'Renamed Org' }));
    expect(renamed).toMatchObject({ smsSegmentLimit: 1, name: 'Renamed Org' });
    const entries = (await auditOf(tenant.id)).filter((e) => e.action === 'settings_update').map((e) => e.details);
    expect(entries[0]).toEqual({ from: { smsSegmentLimit: 3 }, to: { smsSegmentLimit: 1 } });
  });

  it('contacts added without a locale get the organisation’s default locale', async () => {
    const { tenant } = await tenantWithRules(db(), []);
    await saveOrgSettings(db(), await admin(tenant.id), form(await readOrgSettings(db(), tenant.id), { locale: 'de' }));
    const { booking } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Berlin' }, now);
    const [c] = await h.tdb.sql<{ locale: string }[]>`select c.locale from contacts c join bookings b on b.contact_id = c.id where b.id = ${booking.id}`;
    expect(c.locale).toBe('de');
  });
});

describe('outgoing mail uses the sender name and reply-to', () => {
  it('a reminder sent after the change carries the new From name and Reply-To (real SMTP catcher)', async () => {
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H' }]);
    await saveOrgSettings(db(), await admin(tenant.id), form(await readOrgSettings(db(), tenant.id), { senderName: 'Pottery Front Desk', replyTo: 'desk@pottery.example' }));
    await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam', title: 'Pottery' }, now);
    await h.tick('2027-06-15T07:00:00Z');
    const [m] = await h.caught();
    expect(m.raw).toMatch(/^From: Pottery Front Desk <reminders@punctual\.local>$/m);
    expect(m.raw).toMatch(/^Reply-To: desk@pottery\.example$/m);
    // Without a sender name the organisation's name is used, and without a reply-to there is no Reply-To header.
    const { tenant: plain } = await tenantWithRules(db(), [{ offset: '-PT1H' }]);
    await eventWithBooking(db(), plain.id, { startsAt: '2027-06-16T08:00:00Z', timeZone: 'Europe/Amsterdam' }, now);
    await h.tick('2027-06-16T07:00:00Z');
    const second = (await h.caught())[1];
    expect(second.raw).toMatch(/^From: Test Org <reminders@punctual\.local>$/m);
    expect(second.raw).not.toMatch(/^Reply-To:/m);
  });
});

describe('send a test message', () => {
  it('a worker sends it through the organisation’s provider and records the provider’s 250 answer; one per 10 s', async () => {
    const { tenant } = await tenantWithRules(db(), []);
    const a = await admin(tenant.id);
    await saveOrgSettings(db(), a, form(await readOrgSettings(db(), tenant.id), { senderName: 'Test Desk', replyTo: 'desk@test.example' }));
    const asked = await requestTestMessage(db(), a, {});
    expect(asked).toMatchObject({ to: a.actor, status: 'pending', providerAnswer: null, provider: 'smtp' });

    // Another within 10 s is refused with a sentence; none is added.
    const again = await refusal(requestTestMessage(db(), { ...a, now: new Date(now.getTime() + 9_000) }, { to: a.actor }));
    expect([again.httpStatus, again.field]).toEqual([429, 'to']);
    expect(again.message).toBe('One test message per 10 seconds: the last one was asked for moments ago — try again in 1 s.');

    await h.drain();
    const [row] = await db().select().from(orgTestMessages);
    expect(row.status).toBe('sent');
    expect(row.providerAnswer).toMatch(/^250 /);
    expect(row.finishedAt).not.toBeNull();
    const [m] = await h.caught();
    expect(m.envelopeTo).toEqual([a.actor]);
    expect(m.subject).toBe('Test message from Test Desk');
    expect(m.raw).toMatch(/^Reply-To: desk@test\.example$/m);
    expect((await auditOf(tenant.id)).find((e) => e.action === 'settings_test_message')?.details).toMatchObject({ address: a.actor, provider: 'smtp', testMessageId: row.id });

    // 10 s later another one may be asked for.
    // Only to the organisation's own staff (sender identity): a colleague, in any case.
    const colleague = await admin(tenant.id, 'staff');
    expect((await requestTestMessage(db(), { ...a, now: new Date(now.getTime() + 10_000) }, { to: colleague.actor.toUpperCase() })).status).toBe('pending');
  });

  it('a provider this worker has no credentials for is reported as such', async () => {
    const { tenant } = await tenantWithRules(db(), [], 'UTC', 'http_api');
    const a = await admin(tenant.id);
    await requestTestMessage(db(), a, {});
    await h.drain();
    const [row] = await db().select().from(orgTestMessages);
    expect(row).toMatchObject({ status: 'failed', providerAnswer: expect.stringMatching(/^NO_CHANNEL: this worker has no HTTP API provider configured: set HTTP_EMAIL_API_URL and HTTP_EMAIL_API_KEY/) });
  });

  describe('through a refusing SMTP server', () => {
    let peer: SmtpPeer;
    beforeAll(async () => {
      peer = await startSmtpPeer(['rcpt:550 5.1.1 <nobody@example.test>: Recipient address rejected']);
    });
    afterAll(async () => peer?.close());

    it('records the refusal verbatim', async () => {
      const { tenant } = await tenantWithRules(db(), []);
      const a = await admin(tenant.id);
      await requestTestMessage(db(), a, {});
      const channel = createSmtpChannel({ url: `${peer.url}${peer.url.includes('?') ? '&' : '?'}ignoreTLS=true` });
      try {
        // A real worker run (graphile-worker's runOnce with the worker's task list) whose SMTP provider is the peer.
        const ctx = { ...h.ctx, channel, sendDeps: { ...h.ctx.sendDeps, channel, channels: { smtp: channel } } };
        await runOnce({ connectionString: h.tdb.url, taskList: taskList(ctx), logger: quietLogger() });
      } finally {
        await channel.close();
      }
      const [row] = await db().select().from(orgTestMessages);
      expect(row).toMatchObject({ status: 'failed', providerAnswer: '550 5.1.1 <nobody@example.test>: Recipient address rejected' });
      expect(peer.received).toHaveLength(0);
    });
  });
});

describe('guest partnerships, each side agreeing', () => {
  async function twoOrgs() {
    const { tenant: host } = await tenantWithRules(db(), [{ offset: '-PT1H', audience: ['external'] }]);
    const guest = await createTenant(db(), { slug: `guest-${++n}`, name: 'Guest Collective', timeZone: 'Europe/London', senderEmail: 'hello@guest.test' });
    const hostAdmin = await admin(host.id);
    const guestAdmin = await admin(guest.id);
    return { host, guest, hostAdmin, guestAdmin };
  }
  const pair = (guestId: string, hostId: string) =>
    db().select().from(guestPartnerships).where(and(eq(guestPartnerships.guestTenantId, guestId), eq(guestPartnerships.hostTenantId, hostId)));

  it('a host asks, the guest accepts; either side ends it; every step audited on both sides and version-checked', async () => {
    const { host, guest, hostAdmin, guestAdmin } = await twoOrgs();
    const asked = await partnershipStepAction(db(), hostAdmin, { step: 'propose', org: guest.slug, side: 'host' });
    // Until the guest accepts, the host knows it only by the slug it typed (no oracle across tenants).
    expect(asked).toMatchObject({ side: 'host', otherTenantId: null, otherName: guest.slug, status: 'pending', proposedBy: 'host', description: `waiting for “${guest.slug}” to accept`, steps: ['decline'] });

    // The host cannot accept its own request.
    const own = await refusal(partnershipStepAction(db(), hostAdmin, { step: 'accept', org: guest.slug, side: 'host', version: asked.version }));
    expect([own.httpStatus, own.message]).toEqual([409, `You proposed this partnership: only “${guest.slug}” can accept it.`]);

    const [seenByGuest] = await readAgreements(db(), guest.id);
    expect(seenByGuest).toMatchObject({ side: 'guest', otherName: 'Test Org', status: 'pending', description: 'Test Org asks to book our people as guests', steps: ['accept', 'decline'] });
    // A stale version is a 409 that writes nothing.
    await db().update(guestPartnerships).set({ guestLimit: 'contacts' }).where(eq(guestPartnerships.guestTenantId, guest.id));
    const stale = await refusal(partnershipStepAction(db(), guestAdmin, { step: 'accept', org: host.slug, side: 'guest', version: seenByGuest.version }));
    expect([stale.httpStatus, stale.field]).toEqual([409, 'version']);
    expect((await pair(guest.id, host.id))[0].status).toBe('pending');

    const accepted = await partnershipStepAction(db(), guestAdmin, { step: 'accept', org: host.slug, side: 'guest', version: seenByGuest.version + 1 });
    expect(accepted).toMatchObject({ status: 'active', description: 'Test Org may book our people as guests', steps: ['end'] });
    // Accepted: now the host sees the guest organisation's name.
    expect((await readAgreements(db(), host.id))[0]).toMatchObject({ otherTenantId: guest.id, otherName: 'Guest Collective', status: 'active' });
    const ended = await partnershipStepAction(db(), hostAdmin, { step: 'end', org: guest.slug, side: 'host', version: accepted.version });
    expect(ended.status).toBe('ended');

    for (const [tenantId, proposed, partner] of [
      [host.id, guest.slug, 'Guest Collective'],
      [guest.id, 'Test Org', 'Test Org'],
    ]) {
      const steps = (await auditOf(tenantId)).filter((e) => e.action.startsWith('partnership_'));
      expect(steps.map((e) => [e.action, (e.details as { partner: string }).partner, (e.details as { to: string }).to])).toEqual([
        ['partnership_propose', proposed, 'pending'],
        ['partnership_accept', partner, 'active'],
        ['partnership_end', partner, 'ended'],
      ]);
    }
  });

  it('a guest offers, the host declines; a slug no organisation has is a proposal like any other', async () => {
    const { host, guest, hostAdmin, guestAdmin } = await twoOrgs();
    const offered = await partnershipStepAction(db(), guestAdmin, { step: 'propose', org: host.slug, side: 'guest' });
    expect(offered).toMatchObject({ status: 'pending', proposedBy: 'guest' });
    const [seenByHost] = await readAgreements(db(), host.id);
    expect(seenByHost.description).toBe('Guest Collective offers to let us book its people as guests');
    const declined = await partnershipStepAction(db(), hostAdmin, { step: 'decline', org: guest.slug, side: 'host', version: seenByHost.version });
    expect(declined.status).toBe('declined');
    expect((await auditOf(guest.id)).map((e) => e.action)).toEqual(['partnership_propose', 'partnership_decline']);
    // A declined partnership may be proposed again (pending once more; the booking stays refused until accepted).
    expect(await partnershipStepAction(db(), guestAdmin, { step: 'propose', org: host.slug, side: 'guest' })).toMatchObject({ status: 'pending', proposedBy: 'guest' });
    // Answered like a proposal to an organisation that has not answered yet (test/accounts/no-oracle.test.ts compares both).
    expect(await partnershipStepAction(db(), hostAdmin, { step: 'propose', org: 'no-such-org', side: 'host' })).toMatchObject({ status: 'pending', otherName: 'no-such-org', otherTenantId: null });
    const staff = await admin(host.id, 'staff');
    expect((await refusal(partnershipStepAction(db(), staff, { step: 'propose', org: guest.slug, side: 'host' }))).httpStatus).toBe(403);
  });

  it('a pending partnership lets the host neither book the guest organisation’s people nor write in its name', async () => {
    const { host, guest, hostAdmin } = await twoOrgs();
    const event = await createEvent(db(), host.id, { title: 'Joint session', startsAt: '2027-06-15T08:00:00Z', endsAt: '2027-06-15T09:00:00Z', timeZone: 'Europe/Amsterdam' });
    await partnershipStepAction(db(), hostAdmin, { step: 'propose', org: guest.slug, side: 'host' });
    // Booking: refused while pending.
    await expect(
      addBooking(db(), host.id, { eventId: event.id, role: 'external', guestTenantId: guest.id, contact: { email: 'gus@guest.test', name: 'Gus' } }, now),
    ).rejects.toMatchObject({ code: 'forbidden', field: 'guestTenantId' });

    // Sending: a guest booked under an active partnership, which then ended and was asked for again (pending) —
    // the reminder goes out in the host's own name.
    const other = await createTenant(db(), { slug: `guest2-${++n}`, name: 'Second Guest', timeZone: 'UTC', senderEmail: 'hello@second.test' });
    await allowGuestsFrom(db(), other.id, host.id);
    await addBooking(db(), host.id, { eventId: event.id, role: 'external', guestTenantId: other.id, contact: { email: 'sam@second.test', name: 'Sam' } }, now);
    const [p] = await pair(other.id, host.id);
    expect(p.status).toBe('active');
    const ended = await partnershipStepAction(db(), hostAdmin, { step: 'end', org: other.slug, side: 'host', version: p.version });
    const again = await partnershipStepAction(db(), hostAdmin, { step: 'propose', org: other.slug, side: 'host', version: ended.version });
    expect(again.status).toBe('pending');
    await h.tick('2027-06-15T07:00:00Z');
    const [m] = await h.caught();
    expect(m.envelopeTo).toEqual(['sam@second.test']);
    expect(m.raw).toMatch(/^From: Test Org <reminders@punctual\.local>$/m);
    const [d] = await db().select().from(deliveries);
    expect(d.sendingTenantId).toBe(host.id);
    expect((await db().select().from(tenants).where(eq(tenants.id, other.id)))[0].name).toBe('Second Guest');
  });
});
