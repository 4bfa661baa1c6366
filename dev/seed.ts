/**
 * Demo data for `npm start`: a tenant "demo" (Europe/Amsterdam) with reminder rules, a partner tenant for
 * external guests, and a batch of events around `now` that looks like a working day (issue #12):
 *
 *   "Morning Wheel Throwing"  started 4 h ago      ┐ their reminders ("day before", host heads-up, starting soon,
 *   "Glaze Lab (online)"      started 2 h ago      ┘ room opening) went out on time — the dashboard's history
 *   "Clay & Coffee (online)"  starts now+9 min, room opens 3 min before → starting-soon due now+4 min, room-opening
 *                             now+6 min (its host heads-up went out 6 min ago)
 *   "Evening Yoga"            America/New_York, starts now+16 min → host heads-up now+1 min, starting-soon now+11 min
 *   "Team Offsite"            all-day, three days ahead → scheduled reminders only; two people booked it this
 *                             morning, and their booking confirmations are the demo's one dead letter (Noor: the
 *                             SMTP server refused it, 550 5.7.1) and one unknown outcome (Theo: the connection
 *                             dropped) — both still sendable for the rest of the day, to try Replay / Mark as sent on.
 *
 * Everything was booked two days ago (as an import: nobody is told again), so every reminder was planned before its
 * due instant and none is stored `expired`. What was due before `now` is sent by the real send path on a simulated
 * clock against simulated providers (dev/demo-history.ts): deliveries with their attempts 0.2–1 s after the due
 * instant (one retry after a busy SMTP server), and the mailbox's copies at the same instants; the dead letter's and
 * the unknown outcome's alerts went out a minute after each (email to the admin, the Slack-compatible post), so the
 * worker does not alert about them again when it starts. The whole batch is one transaction.
 *
 * Notifications (issue #9 §9): the demo tenant gets a `notification_settings` row when it has none — the default
 * policy (domain/notifications/notification-policy.ts), SMS sender {@link DEMO_SMS_SENDER} (Twilio's magic test number) and, when
 * `opts.webhookCatcherUrl` is given (`npm start` passes its built-in receiver), the webhook endpoint
 * `<catcher>/hooks/demo` with a fresh `whsec_` secret, switched on. Three demo contacts ({@link demoContacts}) take
 * some messages by SMS: Ada takes booking updates by SMS only, Lin has quiet hours 22:00–07:00 (New York).
 *
 * Alerts (issue #10 §6): the demo tenant's alert settings email its admin and post to the built-in receiver's
 * Slack-compatible path (dev/webhook-catcher.ts), see {@link seedAlertSettings}.
 *
 * Idempotent: an existing demo tenant with an event starting in the next two hours is left alone; otherwise
 * it gets a fresh batch of events with its own history (so a restart a day later still demonstrates something;
 * earlier batches are left as they are). An existing settings
 * row is kept (secret included); only an endpoint that points at an EARLIER built-in receiver
 * (`http://127.0.0.1:<port>/hooks/demo`), or that was never set (no URL, no secret), is moved to the current
 * receiver. A demo contact is given its phone, preferences and quiet hours only while it has no phone, so edits
 * made since are kept.
 */
import { randomBytes } from 'node:crypto';
import { DEMO_PASSWORD, demoAccounts, ensureStaffUser } from '@/server/accounts/staff';
import { and, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { newWebhookSecret } from '@/channels/webhook';
import type { Db } from '@/db/client';
import { setActor } from '@/db/queries/platform/actor';
import { findOrCreateContact, getTenantBySlug } from '@/db/queries/scheduling/scheduling';
import { alertSettings, contacts, events, notificationSettings, staffUsers, tenants } from '@/db/schema';
import { defaultPolicy } from '@/domain/notifications/notification-policy';
import type { ChannelPreferences } from '@/domain/notifications/preferences';
import type { QuietHours } from '@/domain/notifications/quiet-hours';
import type { Event } from '@/db/schema';
import { addBooking, addBookingsBulk, type BulkBookingInput } from '@/server/scheduling/bookings';
import { createEvent } from '@/server/scheduling/events';
import type { CreateEventInput } from '@/server/scheduling/inputs';
import { replayHistory } from './demo-history';
import { hookUrl } from './webhook-catcher';
import { allowGuestsFrom, createTenant } from '@/server/organisations/tenants';
import { createReminderRule } from '@/server/rules/reminder-rule';

const MIN = 60_000;

interface SeedResult {
  tenantSlug: string;
  createdTenant: boolean;
  createdEvents: number;
}

interface SeedOptions {
  /** Base URL of the built-in webhook receiver (dev/webhook-catcher.ts), e.g. http://127.0.0.1:4100. */
  webhookCatcherUrl?: string;
  /** The app's public base URL, for the links in the history's alert messages (default: server/alerts/evaluation.ts alertPublicUrl). */
  publicUrl?: string;
}

/** The demo tenant's SMS sender: Twilio's magic "From" number that always succeeds with test credentials. */
export const DEMO_SMS_SENDER = '+15005550006';

/** Demo contacts that take messages by SMS (phones in E.164, valid per domain/phone.ts). */
const demoContacts: { email: string; name: string; timeZone: string; phone: string; preferences: ChannelPreferences; quietHours: QuietHours | null }[] = [
  // Booking updates by SMS only; reminders by email.
  { email: 'ada@demo.punctual.local', name: 'Ada Lovelace', timeZone: 'Europe/London', phone: '+447911123456', preferences: { reminders: ['email'], booking_updates: ['sms'], announcements: ['sms'] }, quietHours: null },
  // Everything by email and SMS, but nothing non-essential at night in New York.
  { email: 'lin@demo.punctual.local', name: 'Lin Chen', timeZone: 'America/New_York', phone: '+12125550123', preferences: { reminders: ['email', 'sms'], booking_updates: ['email', 'sms'], announcements: ['email', 'sms'] }, quietHours: { start: '22:00', end: '07:00' } },
  // The host gets her heads-up by SMS too: the first SMS of the demo goes out as soon as the worker runs.
  { email: 'hana.host@demo.punctual.local', name: 'Hana Okafor', timeZone: 'Europe/Amsterdam', phone: '+31612345678', preferences: { reminders: ['email', 'sms'], booking_updates: ['email'], announcements: ['email'] }, quietHours: null },
];

/** The demo tenant's reminder rules (also given to the browser tests' own tenants, e2e/tenants.ts). */
export const demoRules = [
  { name: 'Day before', anchor: 'start', offset: '-P1D', audience: ['attendee', 'external'], template: 'attendee-reminder', lateSendWindowSeconds: 2 * 3600 },
  { name: 'Starting soon', anchor: 'start', offset: '-PT5M', audience: ['attendee', 'external'], template: 'attendee-reminder', lateSendWindowSeconds: 5 * 60 },
  { name: 'Room is opening', anchor: 'room_open', offset: 'PT0S', audience: ['attendee', 'external'], template: 'room-opening', lateSendWindowSeconds: 10 * 60 },
  { name: 'Host heads-up', anchor: 'start', offset: '-PT15M', audience: ['host'], template: 'host-reminder', lateSendWindowSeconds: 30 * 60 },
] as const;

/** An endpoint an earlier built-in receiver was given (its port may differ from this start's). */
const catcherEndpoint = /^http:\/\/127\.0\.0\.1:\d+\/hooks\/demo$/;

/** The demo tenant's notification settings (module doc). */
async function seedNotificationSettings(db: Db, tenantId: string, opts: SeedOptions): Promise<void> {
  const webhookUrl = opts.webhookCatcherUrl ? hookUrl(opts.webhookCatcherUrl, 'demo') : null;
  await db
    .insert(notificationSettings)
    .values({
      tenantId,
      policy: defaultPolicy,
      smsSender: DEMO_SMS_SENDER,
      webhookUrl,
      webhookSecret: webhookUrl ? newWebhookSecret() : null,
      webhookEnabled: !!webhookUrl,
      updatedBy: 'seed',
    })
    .onConflictDoNothing({ target: notificationSettings.tenantId });
  if (!webhookUrl) return;
  const [row] = await db.select().from(notificationSettings).where(eq(notificationSettings.tenantId, tenantId));
  if (row.webhookUrl === webhookUrl) return;
  const change =
    row.webhookUrl && catcherEndpoint.test(row.webhookUrl)
      ? { webhookUrl }
      : !row.webhookUrl && !row.webhookSecret
        ? { webhookUrl, webhookSecret: newWebhookSecret(), webhookEnabled: true }
        : null;
  if (!change) return;
  await db.transaction(async (tx) => {
    await setActor(tx, 'seed');
    await tx.update(notificationSettings).set({ ...change, updatedAt: sql`now()` }).where(eq(notificationSettings.tenantId, tenantId));
  });
}

/**
 * An alert Slack URL a built-in receiver was given: `http://127.0.0.1:<port>/slack/demo/<secret>` (group 1: the secret;
 * versions before issue #12 gave none, and then any local process could post a "verified" alert to the demo).
 */
const catcherSlackEndpoint = /^http:\/\/127\.0\.0\.1:\d+\/slack\/demo(?:\/([\w-]+))?$/;

/**
 * The demo tenant's alert settings (issue #10 §6), when it has none: alerts email the demo admin (they land in the
 * catcher's mailbox) and, with the built-in webhook receiver, post to its Slack-compatible path
 * `<catcher>/slack/demo/<secret>` (they show under /mailbox?channel=webhook). Like a real Slack webhook URL, the URL
 * holds a random secret (the receiver calls a post verified only at the URL in the settings). An existing row is
 * kept; only a Slack URL pointing at an EARLIER built-in receiver is moved to the current one, keeping its secret
 * (one without a secret gets one).
 */
async function seedAlertSettings(db: Db, tenantId: string, opts: SeedOptions): Promise<void> {
  const slackBase = opts.webhookCatcherUrl ? `${opts.webhookCatcherUrl.replace(/\/+$/, '')}/slack/demo` : null;
  const slackUrl = (secret?: string) => `${slackBase}/${secret ?? randomBytes(18).toString('base64url')}`;
  const [adminUser] = await db.select({ id: staffUsers.id }).from(staffUsers).where(and(eq(staffUsers.tenantId, tenantId), eq(staffUsers.email, 'admin@demo.punctual.local')));
  await db
    .insert(alertSettings)
    .values({ tenantId, emailRecipients: adminUser ? [adminUser.id] : [], slackWebhookUrl: slackBase ? slackUrl() : null, updatedBy: 'seed' })
    .onConflictDoNothing({ target: alertSettings.tenantId });
  if (!slackBase) return;
  const [row] = await db.select().from(alertSettings).where(eq(alertSettings.tenantId, tenantId));
  const earlier = row.slackWebhookUrl ? catcherSlackEndpoint.exec(row.slackWebhookUrl) : null;
  if (!earlier) return;
  const slackWebhookUrl = slackUrl(earlier[1]);
  if (row.slackWebhookUrl === slackWebhookUrl) return;
  await db.transaction(async (tx) => {
    await setActor(tx, 'seed');
    await tx.update(alertSettings).set({ slackWebhookUrl, updatedAt: sql`now()` }).where(eq(alertSettings.tenantId, tenantId));
  });
}

/** The demo contacts of {@link demoContacts} in tenant `tenantId` (the demo, or a browser test's own tenant): created if missing; name, zone, phone, preferences and quiet hours set while they have no phone. */
export async function seedDemoContacts(db: Db, tenantId: string): Promise<void> {
  for (const c of demoContacts) {
    await db.transaction(async (tx) => {
      await setActor(tx, 'seed');
      // Only tenant and email: a known contact keeps its name, zone and language.
      const { id } = await findOrCreateContact(tx, { tenantId, email: c.email });
      await tx
        .update(contacts)
        .set({ name: c.name, timeZone: c.timeZone, phone: c.phone, preferences: c.preferences, quietHours: c.quietHours })
        .where(and(eq(contacts.id, id), isNull(contacts.phone)));
    });
  }
}

/**
 * Seeds the demo (see module doc). `now` is the UTC instant the demo is placed around; `opts.webhookCatcherUrl`
 * the built-in webhook receiver's base URL, when there is one.
 */
export async function seedDemo(db: Db, now: Date, opts: SeedOptions = {}): Promise<SeedResult> {
  let demo = await getTenantBySlug(db, 'demo');
  let partner = await getTenantBySlug(db, 'partner');
  const createdTenant = !demo;
  if (!demo) {
    demo = await createTenant(db, {
      slug: 'demo',
      name: 'Punctual Demo Studio',
      timeZone: 'Europe/Amsterdam',
      roomOpenLeadMinutes: 30,
      senderEmail: 'reminders@demo.punctual.local',
    });
    for (const r of demoRules) await createReminderRule(db, demo.id, { ...r, audience: [...r.audience] });
  }
  if (!partner) {
    partner = await createTenant(db, { slug: 'partner', name: 'Partner Collective', timeZone: 'Europe/London', senderEmail: 'hello@partner.punctual.local' });
  }
  // The demo and its partner are set up already: neither shows a new organisation's first-day checklist (also on a
  // data folder made before the checklist existed).
  await db.update(tenants).set({ firstDayDismissedAt: now }).where(and(inArray(tenants.id, [demo.id, partner.id]), isNull(tenants.firstDayDismissedAt)));
  // Partner lets the demo studio book its people as external guests (reminded in Partner's name).
  await allowGuestsFrom(db, partner.id, demo.id);
  // Settings and SMS contacts before any booking: reminders are planned per the contact's channels at booking time.
  await seedNotificationSettings(db, demo.id, opts);
  await seedDemoContacts(db, demo.id);
  const tenantIds: Record<string, string> = { demo: demo.id, partner: partner.id };
  for (const a of demoAccounts) await ensureStaffUser(db, tenantIds[a.tenantSlug]!, { ...a, password: DEMO_PASSWORD });
  await seedAlertSettings(db, demo.id, opts);
  // A fresh batch unless a demo event starts within the next two hours (a restart the next day still shows
  // reminders going out).
  const soon = await db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.tenantId, demo.id), gt(events.startsAt, now), lt(events.startsAt, new Date(now.getTime() + 2 * 3600_000))))
    .limit(1);
  if (soon.length > 0) return { tenantSlug: 'demo', createdTenant, createdEvents: 0 };

  const createdEvents = await seedBatch(db, demo.id, partner.id, now, opts.publicUrl);
  return { tenantSlug: 'demo', createdTenant, createdEvents };
}

const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** A demo person as a booking names them (contacts are created or found by address). */
type Person = { email: string; name: string; timeZone?: string | null };
const HANA: Person = { email: 'hana.host@demo.punctual.local', name: 'Hana Okafor', timeZone: 'Europe/Amsterdam' };
const ADA: Person = { email: 'ada@demo.punctual.local', name: 'Ada Lovelace', timeZone: 'Europe/London' };
const SAM: Person = { email: 'sam@demo.punctual.local', name: '' };
const LIN: Person = { email: 'lin@demo.punctual.local', name: 'Lin Chen', timeZone: 'America/New_York' };
const MAYA: Person = { email: 'maya@demo.punctual.local', name: 'Maya Jansen', timeZone: 'Europe/Amsterdam' };
const JONAS: Person = { email: 'jonas@demo.punctual.local', name: 'Jonas Weber', timeZone: 'Europe/Berlin' };
const GRACE: Person = { email: 'guest@partner.punctual.local', name: 'Grace Partner', timeZone: 'America/New_York' };
/** Booked this morning; their booking confirmation is the demo's dead letter (Noor) and unknown outcome (Theo). */
const NOOR: Person = { email: 'noor@demo.punctual.local', name: 'Noor Visser', timeZone: 'Europe/Amsterdam' };
const THEO: Person = { email: 'theo@demo.punctual.local', name: 'Theo Bakker', timeZone: 'Europe/Amsterdam' };

/**
 * One batch of demo events around `now` with its history (module doc): events earlier today and in the next
 * minutes, booked two days ago (so every reminder was planned before its due instant), the messages due so far
 * sent on time by the simulated worker (dev/demo-history.ts), one permission refusal (a dead letter) and one
 * dropped connection (an unknown outcome) on booking confirmations sent this morning. Returns the events created.
 */
async function seedBatch(root: Db, demoId: string, partnerId: string, now: Date, publicUrl?: string): Promise<number> {
  // One transaction for the whole batch: all of it or none (a seed stopped half-way leaves no half-told history),
  // and the simulated worker's ~150 small transactions become savepoints of it instead of ~150 commits.
  return root.transaction(async (tx) => {
    await setActor(tx, 'seed');
    // The send path and the planner take a `Db`; inside this transaction their own transactions are savepoints.
    return seedBatchIn(tx as unknown as Db, demoId, partnerId, now, publicUrl);
  });
}

async function seedBatchIn(db: Db, demoId: string, partnerId: string, now: Date, publicUrl?: string): Promise<number> {
  // Whole minutes, so "opens at 10:40" arrives at 10:40:00, not 10:40:59.
  const base = new Date(Math.ceil(now.getTime() / MIN) * MIN);
  const at = (ms: number) => new Date(base.getTime() + ms);
  const event = (input: Omit<CreateEventInput, 'description' | 'location'> & { description?: string | null; location?: string | null }) =>
    createEvent(db, demoId, { description: null, location: null, ...input });

  // Earlier today: the history the dashboard charts and the deliveries log list.
  const wheel = await event({ title: 'Morning Wheel Throwing', location: 'Studio A, Houtmankade 12', startsAt: at(-245 * MIN), endsAt: at(-155 * MIN), timeZone: 'Europe/Amsterdam' });
  const glaze = await event({
    title: 'Glaze Lab (online)',
    description: 'Bring two bisque-fired test tiles.',
    roomUrl: 'https://rooms.punctual.local/glaze-lab',
    roomOpenLeadMinutes: 10,
    startsAt: at(-130 * MIN),
    endsAt: at(-70 * MIN),
    timeZone: 'Europe/Amsterdam',
  });
  // The next minutes: reminders go out while the demo is watched.
  const clay = await event({
    title: 'Clay & Coffee (online)',
    description: 'Bring a mug-sized lump of clay and your favourite coffee.',
    roomUrl: 'https://rooms.punctual.local/clay-and-coffee',
    roomOpenLeadMinutes: 3,
    startsAt: at(9 * MIN),
    endsAt: at(69 * MIN),
    timeZone: 'Europe/Amsterdam',
  });
  const yoga = await event({ title: 'Evening Yoga', location: 'Studio B, 12 Hudson St', startsAt: at(16 * MIN), endsAt: at(76 * MIN), timeZone: 'America/New_York' });
  const day = DateTime.fromJSDate(new Date(now.getTime() + 3 * DAY), { zone: 'Europe/Amsterdam' }).startOf('day');
  const offsite = await createEvent(db, demoId, {
    title: 'Team Offsite',
    description: 'A day of planning and a long lunch.',
    location: 'De Hallen, Amsterdam',
    startsAt: day.toJSDate(),
    endsAt: day.plus({ days: 1 }).toJSDate(),
    allDay: true,
    timeZone: 'Europe/Amsterdam',
  });

  // Booked two days ago, as an import of existing bookings (nobody is told again): every reminder is planned
  // before its due instant, the "day before" ones included.
  const bookedAt = at(-2 * DAY - 3 * HOUR);
  const attendee = (p: Person): BulkBookingInput => ({ role: 'attendee', contact: p });
  const host = (p: Person): BulkBookingInput => ({ role: 'host', contact: p });
  const guest = (p: Person): BulkBookingInput => ({ role: 'external', contact: p, guestTenantId: partnerId });
  const lists: [Event, BulkBookingInput[]][] = [
    [wheel, [host(HANA), attendee(MAYA), attendee(JONAS)]],
    [glaze, [host(HANA), attendee(ADA), guest(GRACE)]],
    [clay, [host(HANA), attendee(ADA), attendee(SAM), guest(GRACE)]],
    [yoga, [host(HANA), attendee(ADA), attendee(LIN)]],
    [offsite, [host(HANA), attendee(SAM), guest(GRACE)]],
  ];
  for (const [e, people] of lists) await addBookingsBulk(db, demoId, e.id, people, bookedAt, { notify: false });
  // This morning two more people booked the offsite and were sent a confirmation (notified as usual).
  await addBooking(db, demoId, { eventId: offsite.id, role: 'attendee', contact: NOOR }, at(-75 * MIN));
  await addBooking(db, demoId, { eventId: offsite.id, role: 'attendee', contact: THEO }, at(-40 * MIN));

  // The providers' answers: all taken, but for one busy moment at the SMTP server (Jonas's first reminder goes out
  // on its retry) and the two confirmations a person has to look at.
  let busyKey: string | null = null;
  await replayHistory(db, {
    tenantId: demoId,
    eventIds: lists.map(([e]) => e.id),
    until: now,
    publicUrl,
    outcome: ({ channel, address, attemptNo, messageKey }) => {
      if (channel !== 'email') return 'accepted';
      if (address === NOOR.email && messageKey.startsWith('ntf:')) return 'refused';
      if (address === THEO.email && messageKey.startsWith('ntf:')) return 'dropped';
      if (address === JONAS.email && (busyKey === null || busyKey === messageKey)) {
        busyKey = messageKey;
        if (attemptNo === 1) return 'transient';
      }
      return 'accepted';
    },
  });
  return lists.length;
}

