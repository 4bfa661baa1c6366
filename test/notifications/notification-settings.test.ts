/**
 * Notification settings (issue #9 §2–§5) against real PostgreSQL: the per-tenant settings row (policy, SMS sender,
 * webhook endpoint) saved with the version its editor saw (invariant 11), the `whsec_` secret made when a URL is
 * first set and rotated on demand, input checks naming the field, and a 410-switched-off endpoint switched on
 * again. Database and shared helpers: ./settings-database.ts.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { disableWebhook } from '@/db/queries/scheduling/domain-events';
import { insertStaffUser } from '@/db/queries/accounts/staff';
import { notificationSettings } from '@/db/schema';
import { defaultPolicy, emptyPolicy } from '@/domain/notifications/notification-policy';
import { isWebhookSecret } from '@/domain/sending/webhook-secret';
import { AppError } from '@/server/platform/errors';
import { readNotificationSettings, rotateWebhookSecret, saveNotificationSettings } from '@/server/notifications/notification-settings';
import { tenantWithRules } from '@/test/support/fixtures';
import { audit, db, now, rejection, useSettingsDatabase } from './settings-database';

useSettingsDatabase();

const strict = { allowHttp: false };

let n = 0;
async function admin(tenantId: string, role: 'admin' | 'staff' | 'viewer' = 'admin') {
  const email = `${role}${++n}@example.test`;
  const id = await insertStaffUser(db(), { tenantId, email, name: `${role[0].toUpperCase()}${role.slice(1)} ${n}`, role, passwordHash: 'not-used' });
  return { tenantId, actor: email, actorId: id!, now };
}

async function settingsRow(tenantId: string) {
  const [row] = await db().select().from(notificationSettings).where(eq(notificationSettings.tenantId, tenantId));
  return row;
}

/** `ctx` a few minutes later: audit entries of successive saves then sort by their instant. */
const later = <T extends { now: Date }>(ctx: T, minutes: number): T => ({ ...ctx, now: new Date(ctx.now.getTime() + minutes * 60_000) });

const form = (over: Record<string, unknown> = {}) => ({ policy: defaultPolicy, smsSender: '', webhookUrl: '', webhookEnabled: false, version: 0, ...over });

describe('notification settings', () => {
  it('reads an unsaved tenant as the empty policy at version 0, then saves and reads back', async () => {
    const { tenant } = await tenantWithRules(db(), []);
    const ctx = await admin(tenant.id);
    expect(await readNotificationSettings(db(), tenant.id, { withSecret: true })).toMatchObject({
      tenantId: tenant.id,
      policy: emptyPolicy,
      smsSender: null,
      webhookUrl: null,
      webhookEnabled: false,
      hasWebhookSecret: false,
      webhookSecret: null,
      version: 0,
    });

    const policy = structuredClone(defaultPolicy);
    policy.participant_added_as_host.host = false;
    const { settings, secretCreated } = await saveNotificationSettings(db(), ctx, form({ policy, smsSender: '+31 6 12345678' }), strict);
    expect(secretCreated).toBe(false);
    expect(settings).toMatchObject({ policy, smsSender: '+31612345678', version: 1, updatedBy: ctx.actor });
    expect(await readNotificationSettings(db(), tenant.id, { withSecret: false })).toEqual({ ...settings, webhookSecret: undefined });
    expect('webhookSecret' in (await readNotificationSettings(db(), tenant.id, { withSecret: false }))).toBe(false);

    // The second save changes one cell: the audit says exactly which, from and to.
    policy.event_cancelled.host = false;
    const second = await saveNotificationSettings(db(), later(ctx, 1), form({ policy, smsSender: 'Punctual', version: 1 }), strict);
    expect(second.settings).toMatchObject({ smsSender: 'Punctual', version: 2 });
    const entries = await audit(tenant.id);
    expect(entries.map((e) => e.action)).toEqual(['policy_update', 'policy_update']);
    expect(entries[1].details).toEqual({ changes: { 'event_cancelled.host': { from: true, to: false }, smsSender: { from: '+31612345678', to: 'Punctual' } } });
    expect(entries[1].actor).toBe(ctx.actor);
  });

  it('a save that changes nothing writes nothing (same version, no audit entry)', async () => {
    const { tenant } = await tenantWithRules(db(), []);
    const ctx = await admin(tenant.id);
    await saveNotificationSettings(db(), ctx, form(), strict);
    const again = await saveNotificationSettings(db(), ctx, form({ version: 1 }), strict);
    expect(again.settings.version).toBe(1);
    expect((await settingsRow(tenant.id)).version).toBe(1);
    expect(await audit(tenant.id)).toHaveLength(1);
  });

  it('a stale save is a 409 naming who changed it, with the current settings, and writes nothing', async () => {
    const { tenant } = await tenantWithRules(db(), []);
    const ada = await admin(tenant.id);
    const bea = await admin(tenant.id);
    await saveNotificationSettings(db(), ada, form(), strict); // version 1
    const policy = structuredClone(defaultPolicy);
    policy.booking_confirmed.external = false;
    await saveNotificationSettings(db(), bea, form({ policy, version: 1 }), strict); // version 2
    const before = await settingsRow(tenant.id);
    const auditBefore = await audit(tenant.id);

    const err = await rejection(saveNotificationSettings(db(), ada, form({ smsSender: 'Ada', version: 1 }), strict));
    expect(err.httpStatus).toBe(409);
    expect(err.field).toBe('version');
    expect(err.message).toMatch(/^The notification setup was changed by Admin \d+ at .+ since you opened it\.$/);
    expect(err.details).toMatchObject({ version: 2, current: { version: 2, policy, smsSender: null } });
    expect(await settingsRow(tenant.id)).toEqual(before);
    expect(await audit(tenant.id)).toEqual(auditBefore);
  });

  it('two first saves at version 0: one inserts, the other is a 409', async () => {
    const { tenant } = await tenantWithRules(db(), []);
    const ada = await admin(tenant.id);
    const results = await Promise.allSettled([
      saveNotificationSettings(db(), ada, form({ smsSender: 'First' }), strict),
      saveNotificationSettings(db(), ada, form({ smsSender: 'Second' }), strict),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(AppError);
    expect((refused.reason as AppError).httpStatus).toBe(409);
    expect((await settingsRow(tenant.id)).version).toBe(1);
  });

  it('a webhook URL set for the first time gets a whsec_ secret, never written to the audit log; rotation replaces it', async () => {
    const { tenant } = await tenantWithRules(db(), []);
    const ctx = await admin(tenant.id);
    const saved = await saveNotificationSettings(db(), ctx, form({ webhookUrl: ' https://Hooks.Example.com/punctual ', webhookEnabled: true }), strict);
    expect(saved.secretCreated).toBe(true);
    const secret = saved.settings.webhookSecret!;
    expect(isWebhookSecret(secret)).toBe(true);
    expect(saved.settings).toMatchObject({ webhookUrl: 'https://hooks.example.com/punctual', webhookEnabled: true, hasWebhookSecret: true });
    expect((await settingsRow(tenant.id)).webhookSecret).toBe(secret);

    // Changing the URL keeps the secret.
    const moved = await saveNotificationSettings(db(), later(ctx, 1), form({ webhookUrl: 'https://hooks.example.com/v2', webhookEnabled: true, version: 1 }), strict);
    expect(moved.secretCreated).toBe(false);
    expect(moved.settings.webhookSecret).toBe(secret);

    const rotated = await rotateWebhookSecret(db(), later(ctx, 2), { version: 2 });
    expect(isWebhookSecret(rotated.webhookSecret)).toBe(true);
    expect(rotated.webhookSecret).not.toBe(secret);
    expect(rotated.version).toBe(3);
    // A second admin rotating from the same version is refused: only one new secret is valid.
    expect((await rejection(rotateWebhookSecret(db(), ctx, { version: 2 }))).httpStatus).toBe(409);

    const entries = await audit(tenant.id);
    expect(entries.map((e) => [e.action, e.details])).toEqual([
      ['policy_update', expect.anything()],
      ['webhook_update', { webhookUrl: { from: null, to: 'https://hooks.example.com/punctual' }, webhookEnabled: { from: false, to: true }, secretCreated: true }],
      ['webhook_update', { webhookUrl: { from: 'https://hooks.example.com/punctual', to: 'https://hooks.example.com/v2' } }],
      ['webhook_update', { secretRotated: true, webhookUrl: 'https://hooks.example.com/v2' }],
    ]);
    // Removing the endpoint removes its secret; the next endpoint gets a fresh one.
    const removed = await saveNotificationSettings(db(), later(ctx, 3), form({ webhookUrl: '', webhookEnabled: false, version: 3 }), strict);
    expect(removed.settings).toMatchObject({ webhookUrl: null, hasWebhookSecret: false, webhookSecret: null });
    const again = await saveNotificationSettings(db(), later(ctx, 4), form({ webhookUrl: 'https://hooks.example.com/v2', webhookEnabled: false, version: 4 }), strict);
    expect(again.secretCreated).toBe(true);
    expect([secret, rotated.webhookSecret]).not.toContain(again.settings.webhookSecret);

    const text = JSON.stringify(entries);
    expect(text).not.toContain(secret.slice(6));
    expect(text).not.toContain(rotated.webhookSecret!.slice(6));
  });

  it('rotation without an endpoint is refused naming webhookUrl', async () => {
    const { tenant } = await tenantWithRules(db(), []);
    const ctx = await admin(tenant.id);
    await saveNotificationSettings(db(), ctx, form(), strict);
    const err = await rejection(rotateWebhookSecret(db(), ctx, { version: 1 }));
    expect(err).toMatchObject({ httpStatus: 400, field: 'webhookUrl' });
  });

  it.each([
    ['an http URL when http is not allowed', { webhookUrl: 'http://127.0.0.1:9/hook' }, 'webhookUrl', /^webhookUrl: endpoint must be https \(got http\)$/],
    ['a URL with a password', { webhookUrl: 'https://u:p@hooks.example.com/' }, 'webhookUrl', /user name or password/],
    ['not a URL', { webhookUrl: 'hooks' }, 'webhookUrl', /absolute URL/],
    ['a sender name of 12 characters', { smsSender: 'Abcdefghijkl' }, 'smsSender', /^smsSender: a sender name has at most 11 letters and digits/],
    ['a sender with a space', { smsSender: 'ACME Org' }, 'smsSender', /contains a space/],
    ['a sender number without country code', { smsSender: '0612345678' }, 'smsSender', /no country code/],
    ['an unknown template', { policy: { ...defaultPolicy, booking_confirmed: { ...defaultPolicy.booking_confirmed, template: 'nope' } } }, 'policy.booking_confirmed.template', /must be one of booking-confirmed/],
    ['a missing switch', { webhookEnabled: undefined }, 'webhookEnabled', /required/],
    ['switched on without a URL', { webhookEnabled: true }, 'webhookEnabled', /set the endpoint URL/],
    ['no version', { version: undefined }, 'version', /required/],
  ])('bad input → 400 naming the field, nothing written: %s', async (_what, over, field, message) => {
    const { tenant } = await tenantWithRules(db(), []);
    const ctx = await admin(tenant.id);
    const err = await rejection(saveNotificationSettings(db(), ctx, form(over as Record<string, unknown>), strict));
    expect(err.httpStatus).toBe(400);
    expect(err.field).toBe(field);
    expect(err.message).toMatch(message);
    expect(await settingsRow(tenant.id)).toBeUndefined();
  });

  it('http endpoints are accepted when allowed (PUNCTUAL_WEBHOOK_ALLOW_HTTP=true)', async () => {
    const { tenant } = await tenantWithRules(db(), []);
    const ctx = await admin(tenant.id);
    const saved = await saveNotificationSettings(db(), ctx, form({ webhookUrl: 'http://hooks.example.com:8080/hook', webhookEnabled: true }), { allowHttp: true });
    expect(saved.settings.webhookUrl).toBe('http://hooks.example.com:8080/hook');
  });

  it.each([
    ['http://127.0.0.1:9/x', '127.0.0.1 is a loopback address'],
    ['http://10.0.0.1/', '10.0.0.1 is a private address'],
    ['http://[::1]/', '::1 is a loopback address'],
    ['http://localhost/', 'localhost is a loopback name'],
  ])('allowing http does not allow a private address: %s → 400 naming webhookUrl, nothing saved', async (url, why) => {
    const { tenant } = await tenantWithRules(db(), []);
    const ctx = await admin(tenant.id);
    const err = await rejection(saveNotificationSettings(db(), ctx, form({ webhookUrl: url, webhookEnabled: true }), { allowHttp: true }));
    expect(err.httpStatus).toBe(400);
    expect(err.field).toBe('webhookUrl');
    expect(err.message).toBe(`webhookUrl: endpoint must be a public address: ${why}`);
    expect(await settingsRow(tenant.id)).toBeUndefined();
  });

  it('an origin named in PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS (the demo receiver) is accepted; another port on 127.0.0.1 is not', async () => {
    const { tenant } = await tenantWithRules(db(), []);
    const ctx = await admin(tenant.id);
    const policy = { allowHttp: true, allowedOrigins: ['http://127.0.0.1:4010'] };
    const other = await rejection(saveNotificationSettings(db(), ctx, form({ webhookUrl: 'http://127.0.0.1:4011/hooks/acme', webhookEnabled: true }), policy));
    expect(other).toMatchObject({ httpStatus: 400, field: 'webhookUrl', message: 'webhookUrl: endpoint must be a public address: 127.0.0.1 is a loopback address' });
    const saved = await saveNotificationSettings(db(), ctx, form({ webhookUrl: 'http://127.0.0.1:4010/hooks/acme', webhookEnabled: true }), policy);
    expect(saved.settings.webhookUrl).toBe('http://127.0.0.1:4010/hooks/acme');
  });

  it('an endpoint switched off by a 410 shows why; a form opened before is stale; switching it on again clears the reason', async () => {
    const { tenant } = await tenantWithRules(db(), []);
    const ctx = await admin(tenant.id);
    await saveNotificationSettings(db(), ctx, form({ webhookUrl: 'https://hooks.example.com/p', webhookEnabled: true }), strict);
    const at = new Date('2027-06-01T09:30:00Z');
    // A 410 from an endpoint the admin moved away from changes nothing; from the configured one, it switches off.
    expect(await disableWebhook(db(), tenant.id, 'the receiver answered 410', at, 'https://old.example.com/p')).toBe(false);
    expect(await disableWebhook(db(), tenant.id, 'the receiver answered 410 on 2027-06-01T09:30:00.000Z', at, 'https://hooks.example.com/p')).toBe(true);
    const off = await readNotificationSettings(db(), tenant.id, { withSecret: false });
    expect(off).toMatchObject({ webhookEnabled: false, webhookDisabledReason: 'the receiver answered 410 on 2027-06-01T09:30:00.000Z', webhookDisabledAt: at.toISOString(), version: 2 });

    // The admin's form still says "on" at version 1: saving it must not switch the endpoint on unknowingly.
    const stale = await rejection(saveNotificationSettings(db(), ctx, form({ webhookUrl: 'https://hooks.example.com/p', webhookEnabled: true, version: 1 }), strict));
    expect(stale.httpStatus).toBe(409);
    expect((await settingsRow(tenant.id)).webhookEnabled).toBe(false);

    // Saving other things keeps it off, with its reason.
    const policy = structuredClone(defaultPolicy);
    policy.booking_cancelled.attendee = false;
    const kept = await saveNotificationSettings(db(), ctx, form({ policy, webhookUrl: 'https://hooks.example.com/p', webhookEnabled: false, version: 2 }), strict);
    expect(kept.settings).toMatchObject({ webhookEnabled: false, webhookDisabledReason: 'the receiver answered 410 on 2027-06-01T09:30:00.000Z' });

    const on = await saveNotificationSettings(db(), ctx, form({ policy, webhookUrl: 'https://hooks.example.com/p', webhookEnabled: true, version: 3 }), strict);
    expect(on.settings).toMatchObject({ webhookEnabled: true, webhookDisabledReason: null, webhookDisabledAt: null, version: 4 });

    // Switched off by hand: no warning (the audit log says who).
    const offByStaff = await saveNotificationSettings(db(), ctx, form({ policy, webhookUrl: 'https://hooks.example.com/p', webhookEnabled: false, version: 4 }), strict);
    expect(offByStaff.settings).toMatchObject({ webhookEnabled: false, webhookDisabledReason: null, webhookDisabledAt: null });
  });

  it('a staff member (not an admin) cannot save, checked under the lock', async () => {
    const { tenant } = await tenantWithRules(db(), []);
    const sam = await admin(tenant.id, 'staff');
    const err = await rejection(saveNotificationSettings(db(), sam, form(), strict));
    expect(err.httpStatus).toBe(403);
    expect(await settingsRow(tenant.id)).toBeUndefined();
  });
});
