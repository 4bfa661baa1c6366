/**
 * Issue #12, "mail sent in a guest organisation's name is that organisation's business", against real PostgreSQL,
 * the real queue and the SMTP catcher: a host books an external guest of a partner organisation and writes to
 * them; the partner sees every message sent in its name in its deliveries log and audit log (who of the host sent
 * what to whom, when); the partner's limit (its contacts, listed domains, nobody) decides whether the host may
 * write in its name, otherwise the host writes in its own; a limit narrowed after the booking — or between two
 * attempts of one delivery — applies to the next send; the limit is a versioned, audited record.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EmailChannel, OutgoingSms, SmsChannel } from '@/channels/types';
import { createSmtpChannel } from '@/channels/smtp';
import { listAudit } from '@/db/queries/dashboards/audit';
import { getDeliveryStory, searchDeliveries } from '@/db/queries/dashboards/deliveries-log';
import { loadReminderWorld } from '@/db/queries/sending/delivery';
import { listCaughtMessages } from '@/dev/queries/mailbox';
import { findOrCreateContact } from '@/db/queries/scheduling/scheduling';
import { auditLog, contacts, deliveries, guestPartnerships, reminders, type Tenant } from '@/db/schema';
import { editParticipant } from '@/server/scheduling/participants';
import { nudgeParticipant } from '@/server/sending/nudge';
import { sendDeliveryAgain } from '@/server/sending/operator';
import { readPartnerships, setGuestLimitAction } from '@/server/organisations/partnerships';
import { createEvent } from '@/server/scheduling/events';
import { addBookingAction } from '@/server/scheduling/staff-actions';
import { ensureStaffUser } from '@/server/accounts/staff';
import { allowGuestsFrom, createTenant } from '@/server/organisations/tenants';
import { createReminderRule } from '@/server/rules/reminder-rule';
import { addSuppression } from '@/server/suppressions/suppressions';
import { createHarness, type Harness } from '@/test/support/harness';
import { waitForLockWaiters } from '@/test/support/lock-wait';

/** The first call of each message key fails as transient (a 421), every later one goes to the real SMTP catcher. */
function flakyOnce(inner: EmailChannel): EmailChannel & { calls: number } {
  const failed = new Set<string>();
  const ch = {
    name: 'smtp',
    calls: 0,
    async send(message: Parameters<EmailChannel['send']>[0], opts: Parameters<EmailChannel['send']>[1]) {
      ch.calls++;
      if (flaky.on && !failed.has(opts.idempotencyKey)) {
        failed.add(opts.idempotencyKey);
        if (flaky.ambiguous) return { class: 'ambiguous' as const, code: 'ETIMEDOUT', message: 'no answer after DATA (test)' };
        return { class: 'transient' as const, code: '421', message: 'try again later (test)' };
      }
      return inner.send(message, opts);
    },
    close: () => inner.close(),
  };
  return ch;
}
const flaky = { on: false, ambiguous: false };

/** An SMS provider that accepts everything and keeps what it was given (the text carries the sender's name). */
const texts: OutgoingSms[] = [];
const smsProvider: SmsChannel = {
  name: 'sms_api',
  idempotent: false,
  async send(m) {
    texts.push(m);
    return { class: 'accepted', providerId: `SM${texts.length}` };
  },
  close: async () => {},
};

let h: Harness;
beforeAll(async () => {
  // The harness's catcher URL is known only once it runs: wrap a channel that is made lazily.
  let inner: EmailChannel | null = null;
  const lazy: EmailChannel = {
    name: 'smtp',
    send: (m, o) => inner!.send(m, o),
    close: async () => inner?.close(),
  };
  h = await createHarness({ channel: flakyOnce(lazy), deps: { random: () => 0.5, sms: smsProvider, smsFrom: '+3197010000000' } });
  inner = createSmtpChannel({ url: h.catcher.url });
});
afterAll(async () => h?.close());
beforeEach(async () => {
  flaky.on = false;
  flaky.ambiguous = false;
  texts.length = 0;
  await h.tdb.reset();
});
const db = () => h.tdb.db;

const BOOKED_AT = new Date('2027-06-01T09:00:00Z');
let n = 0;

/** Host Studio (with a rule for external guests 1 h before start) and Partner Collective, which lets it book its people. */
async function partners() {
  const host = await createTenant(db(), { slug: `host-${++n}`, name: 'Host Studio', timeZone: 'Europe/Amsterdam', senderEmail: 'reminders@host.test' });
  await createReminderRule(db(), host.id, { name: 'Hour before', anchor: 'start', offset: '-PT1H', audience: ['external'], template: 'attendee-reminder', lateSendWindowSeconds: 3600 });
  const partner = await createTenant(db(), { slug: `partner-${n}`, name: 'Partner Collective', timeZone: 'Europe/London', senderEmail: 'hello@partner.test' });
  await allowGuestsFrom(db(), partner.id, host.id);
  const adminId = (await ensureStaffUser(db(), partner.id, { email: `pat${n}@partner.test`, name: 'Pat Partner', role: 'admin', password: 'partner-pass' }))!;
  const event = await createEvent(db(), host.id, { title: 'Joint session', startsAt: '2027-06-15T08:00:00Z', endsAt: '2027-06-15T09:00:00Z', timeZone: 'Europe/Amsterdam' });
  const partnerAdmin = { tenantId: partner.id, actor: `pat${n}@partner.test`, actorId: adminId, now: new Date('2027-06-02T10:00:00Z') };
  return { host, partner, event, partnerAdmin };
}

/** Host staff (hana@host.test) books `email` as an external guest of `partner`. */
async function bookGuest(host: Tenant, partner: Tenant, eventId: string, email: string) {
  return addBookingAction(db(), { tenantId: host.id, actor: 'hana@host.test', now: BOOKED_AT }, eventId, { name: 'Gus Guest', email, role: 'external', guestTenant: partner.slug });
}

/** Host staff (sam@host.test) nudges the booking at `at` and the queue runs. */
async function nudge(hostId: string, bookingId: string, at: string) {
  const now = new Date(at);
  h.clock.set(now);
  await nudgeParticipant(db(), { tenantId: hostId, actor: 'sam@host.test', now }, { bookingId, template: 'attendee-reminder', idempotencyKey: `nudge-${bookingId}-${at}` });
  await h.drain();
}

async function limitTo(ctx: Awaited<ReturnType<typeof partners>>['partnerAdmin'], hostId: string, limit: 'anyone' | 'contacts' | 'domains' | 'none', domains: string[] = []) {
  const [p] = await readPartnerships(db(), ctx.tenantId);
  return setGuestLimitAction(db(), ctx, hostId, { limit, domains, version: p!.version });
}

const guestAudit = async (tenantId: string) => (await listAudit(db(), tenantId, { action: 'guest_message' }, { limit: 50, offset: 0 })).items;
const from = (m: { headers: unknown }) => String((m.headers as Record<string, string>).from);

describe('the partner sees every message sent in its name', () => {
  it('host books an external guest of the partner and nudges → the partner’s deliveries log and audit log show who sent what to whom, when', async () => {
    const { host, partner, event } = await partners();
    const b = await bookGuest(host, partner, event.id, 'gus@anywhere.test');
    expect(b.sendsAs).toBe('in Partner Collective’s name');
    expect(b.createdBy).toBe('hana@host.test');
    await nudge(host.id, b.id, '2027-06-10T09:00:00.000Z');

    // The message went out in the partner's name (invariant 9) …
    const [mail] = await h.caught();
    expect(mail.envelopeFrom).toBe('hello@partner.test');
    expect(from(mail)).toContain('Partner Collective');
    const [d] = await db().select().from(deliveries);
    expect(d.tenantId).toBe(host.id);
    expect(d.sendingTenantId).toBe(partner.id);

    // … so it is in the partner's deliveries log, saying who of the host sent it; the host's story stays the host's.
    const log = await searchDeliveries(db(), partner.id, {}, { limit: 50, offset: 0 });
    expect(log.total).toBe(1);
    expect(log.items[0]).toMatchObject({
      delivery: { id: d.id, address: 'gus@anywhere.test', status: 'accepted', subject: mail.subject },
      title: 'Manual reminder',
      eventTitle: 'Joint session',
      sentBy: { tenantName: 'Host Studio', actor: 'sam@host.test' },
      sentAs: null,
    });
    expect(await getDeliveryStory(db(), partner.id, d.id)).toBeNull();
    // The host's own log lists it too, in the partner's name.
    const hostLog = await searchDeliveries(db(), host.id, {}, { limit: 50, offset: 0 });
    expect(hostLog.items[0]).toMatchObject({ sentBy: null, sentAs: 'Partner Collective' });
    expect((await getDeliveryStory(db(), host.id, d.id))?.sentAs).toBe('Partner Collective');

    // The partner's audit log: who (host actor and host), what, to whom, when.
    const [entry] = await guestAudit(partner.id);
    expect(entry).toMatchObject({
      actor: 'sam@host.test (Host Studio)',
      action: 'guest_message',
      details: { title: 'Joint session', address: 'gus@anywhere.test', sentBy: 'Host Studio', message: 'Manual reminder', channel: 'email', subject: mail.subject, messageKey: d.messageKey },
    });
    expect(entry.createdAt.toISOString()).toBe('2027-06-10T09:00:00.000Z');
    // Nothing of it in the host's audit but the host's own nudge entry.
    expect((await guestAudit(host.id))).toHaveLength(0);

    // The rule reminder an hour before: in the partner's log too, its host actor the person who booked the guest.
    await h.tick('2027-06-15T07:00:00Z');
    const entries = await guestAudit(partner.id);
    expect(entries.map((e) => [e.actor, (e.details as { message: string }).message])).toEqual([
      ['hana@host.test (Host Studio)', 'Hour before'],
      ['sam@host.test (Host Studio)', 'Manual reminder'],
    ]);
    const log2 = await searchDeliveries(db(), partner.id, {}, { limit: 50, offset: 0 });
    expect(log2.items.map((i) => i.sentBy?.actor)).toEqual(['hana@host.test', 'sam@host.test']);

    // The development mailbox lists them under the organisation whose name they went out in.
    const partnerBox = await listCaughtMessages(db(), { limit: 50, offset: 0 }, { tenantId: partner.id, viewerEmail: 'staff@example.test' });
    expect(partnerBox.total).toBe(2);
    expect((await listCaughtMessages(db(), { limit: 50, offset: 0 }, { tenantId: host.id, viewerEmail: 'staff@example.test' })).total).toBe(0);
  });
});

describe('the partnership limits whom the host may write to in the partner’s name', () => {
  it('a guest address outside the partner’s allowed domains → the message goes out under the host’s own sender', async () => {
    const { host, partner, event, partnerAdmin } = await partners();
    await limitTo(partnerAdmin, host.id, 'domains', ['partner.test']);
    const outside = await bookGuest(host, partner, event.id, 'gus@elsewhere.test');
    expect(outside.sendsAs).toBe('in your own name: Partner Collective lets you write in its name only to addresses at the domains it listed');
    const inside = await bookGuest(host, partner, event.id, 'ida@Partner.test');
    expect(inside.sendsAs).toBe('in Partner Collective’s name');

    await nudge(host.id, outside.id, '2027-06-10T09:00:00.000Z');
    await nudge(host.id, inside.id, '2027-06-10T09:01:00.000Z');
    const mail = await h.caught();
    const toOutside = mail.find((m) => m.envelopeTo.includes('gus@elsewhere.test'))!;
    const toInside = mail.find((m) => m.envelopeTo.includes('ida@Partner.test'))!;
    expect(toOutside.envelopeFrom).toBe('reminders@host.test');
    expect(from(toOutside)).toContain('Host Studio');
    expect(from(toOutside)).not.toContain('Partner Collective');
    expect(toOutside.text).toContain('Host Studio');
    expect(toOutside.text).not.toContain('Partner Collective');
    expect(toInside.envelopeFrom).toBe('hello@partner.test');

    // The partner's logs hold only the message in its name.
    const log = await searchDeliveries(db(), partner.id, {}, { limit: 50, offset: 0 });
    expect(log.items.map((i) => i.delivery.address)).toEqual(['ida@Partner.test']);
    expect((await guestAudit(partner.id)).map((e) => (e.details as { address: string }).address)).toEqual(['ida@Partner.test']);
    const [dOut] = await db().select().from(deliveries).where(eq(deliveries.address, 'gus@elsewhere.test'));
    expect(dOut.sendingTenantId).toBe(host.id);
    // The host's log shows it as its own.
    const hostLog = await searchDeliveries(db(), host.id, { q: 'elsewhere' }, { limit: 50, offset: 0 });
    expect(hostLog.items[0]).toMatchObject({ sentBy: null, sentAs: null });
  });

  it('in its own name, the host still never mails an address on the partner’s suppression list (named, not described)', async () => {
    const { host, partner, event, partnerAdmin } = await partners();
    await limitTo(partnerAdmin, host.id, 'none');
    await addSuppression(db(), partner.id, { address: 'gus@partner.test', reason: 'complained', source: 'private note of the partner' });
    await bookGuest(host, partner, event.id, 'gus@partner.test');
    await h.tick('2027-06-15T07:00:00Z');
    expect(await h.caught()).toHaveLength(0);
    const [d] = await db().select().from(deliveries);
    expect(d).toMatchObject({ status: 'suppressed', sendingTenantId: host.id, statusReason: "address suppressed by the guest's own organisation (Partner Collective)" });
  });

  it('contacts: only addresses the partner already has as contacts (case-insensitive) go out in its name', async () => {
    const { host, partner, event, partnerAdmin } = await partners();
    await findOrCreateContact(db(), { tenantId: partner.id, email: 'Known@Anywhere.test', name: 'Kim' });
    await limitTo(partnerAdmin, host.id, 'contacts');
    const known = await bookGuest(host, partner, event.id, 'known@anywhere.test');
    const stranger = await bookGuest(host, partner, event.id, 'stranger@anywhere.test');
    // The answer names the rule, not the verdict: the host learns nothing about the partner's contacts.
    const rule = 'in Partner Collective’s name if Partner Collective has this address among its own contacts, otherwise in your own name (Partner Collective lets you write in its name only to its own contacts; each message checks again)';
    expect(known.sendsAs).toBe(rule);
    expect(stranger.sendsAs).toBe(rule);
    await h.tick('2027-06-15T07:00:00Z');
    const mail = await h.caught();
    expect(Object.fromEntries(mail.map((m) => [m.envelopeTo[0], m.envelopeFrom]))).toEqual({ 'known@anywhere.test': 'hello@partner.test', 'stranger@anywhere.test': 'reminders@host.test' });
  });
});

describe('no oracle over the guest organisation’s contacts', () => {
  it('booking a contact of the partner and a stranger answers alike: the same body and the same audit entry (minus ids)', async () => {
    const { host, partner, event, partnerAdmin } = await partners();
    await findOrCreateContact(db(), { tenantId: partner.id, email: 'kit@anywhere.test', name: 'Kit' });
    await limitTo(partnerAdmin, host.id, 'contacts');
    // The route answers { id, sendsAs?, kept? } from this result (app/api/events/[id]/bookings/route.ts).
    const shape = (b: Awaited<ReturnType<typeof bookGuest>>) => JSON.stringify({ ...(b.sendsAs ? { sendsAs: b.sendsAs } : {}), ...(b.kept ? { kept: b.kept } : {}) });
    const contact = await bookGuest(host, partner, event.id, 'kit@anywhere.test');
    const stranger = await bookGuest(host, partner, event.id, 'kat@anywhere.test');
    expect(shape(contact)).toBe(shape(stranger));
    const entries = (await listAudit(db(), host.id, { action: 'booking_add' }, { limit: 50, offset: 0 })).items;
    const detailsOf = (email: string) => {
      const d = { ...(entries.find((e) => (e.details as { email: string }).email === email)!.details as Record<string, unknown>) };
      delete d.bookingId;
      delete d.email;
      return JSON.stringify(d);
    };
    expect(detailsOf('kit@anywhere.test')).toBe(detailsOf('kat@anywhere.test'));
  });
});

describe('a limit narrowed after the booking', () => {
  it('applies to the next send: the planned reminder goes out under the host’s own sender', async () => {
    const { host, partner, event, partnerAdmin } = await partners();
    const b = await bookGuest(host, partner, event.id, 'gus@elsewhere.test');
    expect(b.sendsAs).toBe('in Partner Collective’s name');
    await nudge(host.id, b.id, '2027-06-10T09:00:00.000Z');
    expect((await h.caught())[0].envelopeFrom).toBe('hello@partner.test');

    await limitTo(partnerAdmin, host.id, 'domains', ['partner.test']);
    await h.tick('2027-06-15T07:00:00Z');
    const mail = await h.caught();
    expect(mail).toHaveLength(2);
    expect(mail[1].envelopeFrom).toBe('reminders@host.test');
    expect(from(mail[1])).toContain('Host Studio');
    // The partner's logs: the nudge in its name stays; the reminder after the change is not its.
    expect((await searchDeliveries(db(), partner.id, {}, { limit: 50, offset: 0 })).items.map((i) => i.title)).toEqual(['Manual reminder']);
    expect(await guestAudit(partner.id)).toHaveLength(1);
  });

  it('between two attempts of one delivery: claimed in the partner’s name, retried after the change in the host’s', async () => {
    const { host, partner, event, partnerAdmin } = await partners();
    await bookGuest(host, partner, event.id, 'gus@elsewhere.test');
    flaky.on = true;
    await h.tick('2027-06-15T07:00:00Z');
    const [first] = await db().select().from(deliveries);
    expect(first).toMatchObject({ status: 'retrying', sendingTenantId: partner.id, attemptCount: 1 });
    // The attempt that failed was made in the partner's name: its audit log says so.
    expect(await guestAudit(partner.id)).toHaveLength(1);

    await limitTo(partnerAdmin, host.id, 'none');
    await h.tick(new Date(first.nextAttemptAt!.getTime() + 1000));
    const [mail] = await h.caught();
    expect(mail.envelopeFrom).toBe('reminders@host.test');
    expect(from(mail)).toContain('Host Studio');
    const [after] = await db().select().from(deliveries);
    expect(after).toMatchObject({ status: 'accepted', sendingTenantId: host.id, attemptCount: 2, messageKey: first.messageKey });
    // Its first attempt went out in the partner's name, so it stays in the partner's deliveries log (the issue: the
    // partner sees every message sent in its name; review of issue #12 — it vanished once the sender switched).
    const partnerLog = await searchDeliveries(db(), partner.id, {}, { limit: 50, offset: 0 });
    expect(partnerLog.total).toBe(1);
    expect(partnerLog.items[0]).toMatchObject({ delivery: { id: first.id, status: 'accepted', sendingTenantId: host.id }, sentBy: { tenantName: 'Host Studio', actor: 'hana@host.test' }, sentAs: null });
    expect(await getDeliveryStory(db(), partner.id, first.id)).toBeNull();
    expect(await guestAudit(partner.id)).toHaveLength(1);
    // The host's log lists it once, as its own now.
    expect((await searchDeliveries(db(), host.id, {}, { limit: 50, offset: 0 })).items.map((i) => [i.delivery.id, i.sentAs])).toEqual([[first.id, null]]);
    // A third organisation sees nothing of it.
    const other = await createTenant(db(), { slug: `other-${n}`, name: 'Other Org', timeZone: 'UTC', senderEmail: 'x@other.test' });
    expect((await searchDeliveries(db(), other.id, {}, { limit: 50, offset: 0 })).total).toBe(0);
  });

  it('a partnership removed altogether: the host writes in its own name', async () => {
    const { host, partner, event } = await partners();
    await bookGuest(host, partner, event.id, 'gus@partner.test');
    await db().delete(guestPartnerships).where(and(eq(guestPartnerships.guestTenantId, partner.id), eq(guestPartnerships.hostTenantId, host.id)));
    await h.tick('2027-06-15T07:00:00Z');
    expect((await h.caught())[0].envelopeFrom).toBe('reminders@host.test');
  });

  it('the edit waits for a send being prepared under the old limit (FOR SHARE on the partnership), then applies', async () => {
    const { host, partner, event, partnerAdmin } = await partners();
    const b = await bookGuest(host, partner, event.id, 'gus@elsewhere.test');
    const [r] = await db().select().from(reminders).where(eq(reminders.bookingId, b.id));
    let release!: () => void;
    const held = new Promise<void>((res) => (release = res));
    let readInside: string | null = null;
    const send = db().transaction(async (tx) => {
      readInside = (await loadReminderWorld(tx, r.id, 'share'))!.sendingTenant.id;
      await held;
    });
    await expect.poll(() => readInside, { interval: 10 }).not.toBeNull(); // the send holds its FOR SHARE lock
    let saved = false;
    const edit = limitTo(partnerAdmin, host.id, 'none').then(() => (saved = true));
    await waitForLockWaiters(db()); // the edit now waits on that lock
    expect(readInside).toBe(partner.id);
    expect(saved).toBe(false);
    release();
    await Promise.all([send, edit]);
    expect(saved).toBe(true);
    expect((await loadReminderWorld(db(), r.id, false))!.sendingTenant.id).toBe(host.id);
  });
});

describe('review of issue #12: the decision follows the address the message actually goes to', () => {
  it('the host edits the guest’s address to a listed one between two attempts: the retry to the OLD address still goes in the host’s name', async () => {
    const { host, partner, event, partnerAdmin } = await partners();
    await limitTo(partnerAdmin, host.id, 'domains', ['partner.test']);
    const b = await bookGuest(host, partner, event.id, 'gus@elsewhere.test');
    expect(b.sendsAs).toContain('in your own name');
    flaky.on = true;
    await h.tick('2027-06-15T07:00:00Z');
    const [first] = await db().select().from(deliveries);
    expect(first).toMatchObject({ status: 'retrying', address: 'gus@elsewhere.test', sendingTenantId: host.id, attemptCount: 1 });

    // The host's staff change the person's address to one at the partner's listed domain.
    const [c] = await db().select().from(contacts).where(eq(contacts.email, 'gus@elsewhere.test'));
    await editParticipant(db(), { tenantId: host.id, actor: 'hana@host.test', now: new Date('2027-06-15T07:00:30Z') }, b.id, { email: 'ida@partner.test', version: c!.version });

    // The claimed delivery keeps its address (it goes out once, under its key) — and so its sender: the host's.
    await h.tick(new Date(first.nextAttemptAt!.getTime() + 1000));
    const [mail] = await h.caught();
    expect(mail.envelopeTo).toEqual(['gus@elsewhere.test']);
    expect(mail.envelopeFrom).toBe('reminders@host.test');
    expect(from(mail)).toContain('Host Studio');
    expect(from(mail)).not.toContain('Partner Collective');
    expect(mail.text).not.toContain('Partner Collective');
    const [after] = await db().select().from(deliveries);
    expect(after).toMatchObject({ status: 'accepted', address: 'gus@elsewhere.test', sendingTenantId: host.id, attemptCount: 2 });
    expect(await guestAudit(partner.id)).toHaveLength(0);
    expect((await searchDeliveries(db(), partner.id, {}, { limit: 50, offset: 0 })).total).toBe(0);
  });

  it('the same through “send again” on an unknown outcome: the resend to the old address keeps the host’s name', async () => {
    const { host, partner, event, partnerAdmin } = await partners();
    await limitTo(partnerAdmin, host.id, 'domains', ['partner.test']);
    const b = await bookGuest(host, partner, event.id, 'gus@elsewhere.test');
    flaky.on = true;
    flaky.ambiguous = true;
    await h.tick('2027-06-15T07:00:00Z');
    const [first] = await db().select().from(deliveries);
    expect(first).toMatchObject({ status: 'unknown', sendingTenantId: host.id });
    const [c] = await db().select().from(contacts).where(eq(contacts.email, 'gus@elsewhere.test'));
    await editParticipant(db(), { tenantId: host.id, actor: 'hana@host.test', now: new Date('2027-06-15T07:00:30Z') }, b.id, { email: 'ida@partner.test', version: c!.version });
    await sendDeliveryAgain(db(), { tenantId: host.id, actor: 'hana@host.test', now: new Date('2027-06-15T07:01:00Z') }, first.id, 'checked: it never arrived');
    await h.drain();
    const [mail] = await h.caught();
    expect(mail.envelopeTo).toEqual(['gus@elsewhere.test']);
    expect(mail.envelopeFrom).toBe('reminders@host.test');
    expect(from(mail)).not.toContain('Partner Collective');
    expect((await db().select().from(deliveries))[0]).toMatchObject({ status: 'accepted', sendingTenantId: host.id });
  });

  /** Host staff book `email` (with mobile `phone`, SMS reminders only) as an external guest of the partner. */
  async function bookTexter(host: Tenant, partner: Tenant, eventId: string, email: string, phone: string) {
    await db().insert(contacts).values({ tenantId: host.id, email, name: 'Ida Guest', phone, preferences: { reminders: ['sms'], booking_updates: ['email'] } });
    return bookGuest(host, partner, eventId, email);
  }

  it('SMS under a domains limit: a listed EMAIL domain does not let the host text any number in the partner’s name', async () => {
    const { host, partner, event, partnerAdmin } = await partners();
    await limitTo(partnerAdmin, host.id, 'domains', ['partner.test']);
    await bookTexter(host, partner, event.id, 'ida@partner.test', '+31612345678');
    await h.tick('2027-06-15T07:00:00Z');
    expect(texts).toHaveLength(1);
    expect(texts[0]!.to).toBe('+31612345678');
    expect(texts[0]!.body).toContain('Host Studio');
    expect(texts[0]!.body).not.toContain('Partner Collective');
    const [d] = await db().select().from(deliveries);
    expect(d).toMatchObject({ channel: 'sms', status: 'accepted', sendingTenantId: host.id });
    expect(await guestAudit(partner.id)).toHaveLength(0);
  });

  it('SMS under a contacts limit: in the partner’s name only to a number one of its own contacts has (E.164), else the host’s', async () => {
    const { host, partner, event, partnerAdmin } = await partners();
    // The partner knows the person by this number (its contact's email address differs from the host's).
    await db().insert(contacts).values({ tenantId: partner.id, email: 'ida.private@partner.test', name: 'Ida', phone: '+31612345678' });
    // Known by email only: the host may not text another number in the partner's name.
    await db().insert(contacts).values({ tenantId: partner.id, email: 'kim@partner.test', name: 'Kim', phone: '+31687654321' });
    await limitTo(partnerAdmin, host.id, 'contacts');
    await bookTexter(host, partner, event.id, 'ida@elsewhere.test', '+31612345678');
    await bookTexter(host, partner, event.id, 'kim@partner.test', '+31611111111');
    await h.tick('2027-06-15T07:00:00Z');
    const byNumber = Object.fromEntries(texts.map((t) => [t.to, t.body]));
    expect(Object.keys(byNumber).sort()).toEqual(['+31611111111', '+31612345678']);
    expect(byNumber['+31612345678']).toContain('Partner Collective');
    expect(byNumber['+31611111111']).toContain('Host Studio');
    expect(byNumber['+31611111111']).not.toContain('Partner Collective');
    const rows = await db().select().from(deliveries);
    expect(Object.fromEntries(rows.map((r) => [r.address, r.sendingTenantId]))).toEqual({ '+31612345678': partner.id, '+31611111111': host.id });
  });
});

describe('the partnership limit is the partner’s versioned, audited record', () => {
  it('saved with the version the admin saw; a stale save is a 409 that writes nothing; every change is audited', async () => {
    const { host, partnerAdmin } = await partners();
    const [p1] = await readPartnerships(db(), partnerAdmin.tenantId);
    expect(p1).toMatchObject({ hostName: 'Host Studio', limit: 'anyone', domains: [], version: 1 });
    const saved = await setGuestLimitAction(db(), partnerAdmin, host.id, { limit: 'domains', domains: 'Partner.test, @eu.partner.test', version: 1 });
    expect(saved).toMatchObject({ limit: 'domains', domains: ['partner.test', 'eu.partner.test'], version: 2, updatedBy: partnerAdmin.actor, description: 'only addresses at partner.test, eu.partner.test' });
    // A second admin who opened version 1 is refused, with the current record, and nothing changes.
    await expect(setGuestLimitAction(db(), partnerAdmin, host.id, { limit: 'anyone', version: 1 })).rejects.toMatchObject({
      code: 'conflict',
      field: 'version',
      details: { version: 2, current: { limit: 'domains', version: 2 } },
    });
    expect((await readPartnerships(db(), partnerAdmin.tenantId))[0]).toMatchObject({ limit: 'domains', version: 2 });
    // An unchanged save writes nothing.
    expect(await setGuestLimitAction(db(), partnerAdmin, host.id, { limit: 'domains', domains: ['partner.test', 'eu.partner.test'], version: 2 })).toMatchObject({ version: 2 });
    const audit = await db().select().from(auditLog).where(and(eq(auditLog.tenantId, partnerAdmin.tenantId), eq(auditLog.action, 'partnership_update')));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor: partnerAdmin.actor,
      details: { partner: 'Host Studio', from: { limit: 'anyone', domains: [] }, to: { limit: 'domains', domains: ['partner.test', 'eu.partner.test'] } },
    });
  });

  it('bad input is a 400 naming the field; another tenant’s partnership is not found; only admins may change it', async () => {
    const { host, partner, partnerAdmin } = await partners();
    const bad = (input: unknown) => setGuestLimitAction(db(), partnerAdmin, host.id, input);
    await expect(bad({ limit: 'everyone', version: 1 })).rejects.toMatchObject({ code: 'validation', field: 'limit' });
    await expect(bad({ limit: 'domains', domains: 'partner.test, *.evil.test', version: 1 })).rejects.toMatchObject({ code: 'validation', field: 'domains', message: expect.stringContaining('*.evil.test') });
    await expect(bad({ limit: 'domains', domains: '', version: 1 })).rejects.toMatchObject({ code: 'validation', field: 'domains' });
    await expect(bad({ limit: 'none' })).rejects.toMatchObject({ code: 'validation', field: 'version' });
    await expect(bad({ limit: 'none', version: 7 })).rejects.toMatchObject({ code: 'validation', field: 'version' });
    // The host cannot set the partner's limit: it has no partnership as a GUEST of the partner.
    const hostAdminId = (await ensureStaffUser(db(), host.id, { email: 'ada@host.test', name: 'Ada', role: 'admin', password: 'host-pass1' }))!;
    await expect(setGuestLimitAction(db(), { tenantId: host.id, actor: 'ada@host.test', actorId: hostAdminId, now: new Date() }, partner.id, { limit: 'anyone', version: 1 })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(setGuestLimitAction(db(), partnerAdmin, 'not-a-uuid', { limit: 'none', version: 1 })).rejects.toMatchObject({ code: 'not_found', field: 'hostTenantId' });
    // A staff member (not an admin) of the partner is refused, checked under the lock a demotion takes.
    const staffId = (await ensureStaffUser(db(), partner.id, { email: 'sid@partner.test', name: 'Sid', role: 'staff', password: 'partner-pass' }))!;
    await expect(setGuestLimitAction(db(), { tenantId: partner.id, actor: 'sid@partner.test', actorId: staffId, now: new Date() }, host.id, { limit: 'none', version: 1 })).rejects.toMatchObject({ code: 'forbidden' });
    expect((await readPartnerships(db(), partner.id))[0]).toMatchObject({ limit: 'anyone', version: 1 });
  });
});
