/**
 * The browser tests' own organisations (e2e/support.ts `tenant` fixture): one per spec file and run, made straight in
 * the app's database by the test worker — the way the operator's seed makes the demo (dev/seed.ts) — so no spec
 * reads or changes another's data, and specs run in parallel workers.
 *
 * Each is set up like the demo tenant, minus its events: zone Europe/Amsterdam, room opening 30 min, the demo's four
 * reminder rules, the default notification policy with the demo's SMS sender and a webhook at the built-in receiver
 * (`/hooks/<slug>`, switched on), alert settings that email its admin and post to the receiver's Slack-compatible path
 * (`/slack/<slug>/<secret>`), the demo's SMS contacts (Ada, Lin, Hana), guests allowed from the demo's partner
 * organisation, and three accounts — Ada Admin, Sam Staff, Vic Viewer, as in the demo — with {@link TENANT_PASSWORD}.
 * A `fresh` one is what `npm run tenant -- create` makes: the organisation and its admin (Ada Admin), nothing else.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { newWebhookSecret } from '@/channels/webhook';
import type { Db } from '@/db/client';
import { getTenantBySlug } from '@/db/queries/scheduling/scheduling';
import { alertSettings, notificationSettings } from '@/db/schema';
import { defaultPolicy } from '@/domain/notifications/notification-policy';
import { root } from '@/scripts/lib';
import { DEMO_SMS_SENDER, demoRules, seedDemoContacts } from '@/dev/seed';
import { ensureStaffUser } from '@/server/accounts/staff';
import { allowGuestsFrom, createTenant } from '@/server/organisations/tenants';
import { createReminderRule } from '@/server/rules/reminder-rule';

/** Roles every test organisation has one account of. */
export type TenantRole = 'admin' | 'staff' | 'viewer';

/** The password of every account of a test organisation. */
export const TENANT_PASSWORD = 'e2e-tenant-password';

/** A test organisation as the specs see it. */
export interface TestTenant {
  id: string;
  slug: string;
  /** Display name (sender name of its mail, the partnership lists' name). */
  name: string;
  timeZone: string;
  /** The demo tenant of `npm start` (dev/seed.ts), not one of the tests' own. */
  demo: boolean;
  /** Sign-in address per role (`partner`: the demo's partner organisation's admin). */
  accounts: Record<TenantRole | 'partner', string>;
  /** Display name per role (what "changed by …" and the audit log say). */
  names: Record<TenantRole, string>;
  /** Password of every account above. */
  password: string;
  /** The tenant's sender address. */
  senderEmail: string;
  /** The mail domain of its accounts, for more addresses of the organisation (`demo.punctual.local` for the demo). */
  emailDomain: string;
}

const NAMES: Record<TenantRole, string> = { admin: 'Ada Admin', staff: 'Sam Staff', viewer: 'Vic Viewer' };

/** The demo tenant and its accounts (server/accounts/staff.ts demoAccounts), as seeded by `npm start`. */
export async function demoTenant(db: Db): Promise<TestTenant> {
  const t = await getTenantBySlug(db, 'demo');
  if (!t) throw new Error('no demo tenant: the app under test must start with the demo seed');
  return {
    id: t.id,
    slug: t.slug,
    name: t.name,
    timeZone: t.timeZone,
    demo: true,
    accounts: { admin: 'admin@demo.punctual.local', staff: 'staff@demo.punctual.local', viewer: 'viewer@demo.punctual.local', partner: 'admin@partner.punctual.local' },
    names: NAMES,
    password: 'punctual-demo',
    senderEmail: t.senderEmail,
    emailDomain: 'demo.punctual.local',
  };
}

/** The built-in webhook receiver's base URL of the app under test (its ports file, scripts/start.ts). */
function webhookCatcherUrl(): string {
  const file = path.resolve(root, process.env.PUNCTUAL_DATA_DIR ?? '.data', 'ports.json');
  const { webhook } = JSON.parse(fs.readFileSync(file, 'utf8')) as { webhook?: number };
  if (!webhook) throw new Error(`${file} names no webhook receiver port`);
  return `http://127.0.0.1:${webhook}`;
}

/**
 * The test organisation `slug` (module doc), created and seeded when it does not exist yet — so a worker that
 * restarts after a failed test finds the same one for the rest of the file. `name` is its display name.
 */
export async function ensureTestTenant(db: Db, slug: string, name: string, opts: { fresh?: boolean } = {}): Promise<TestTenant> {
  const domain = `${slug}.e2e.test`;
  const accounts = { admin: `admin@${domain}`, staff: `staff@${domain}`, viewer: `viewer@${domain}`, partner: 'admin@partner.punctual.local' };
  let t = await getTenantBySlug(db, slug);
  if (!t && opts.fresh) {
    // As `npm run tenant -- create` leaves it: the organisation and its first admin, nothing else.
    t = await db.transaction(async (tx) => {
      const tenant = await createTenant(tx, { slug, name, timeZone: 'Europe/Amsterdam', senderEmail: `reminders@${domain}` });
      if (!(await ensureStaffUser(tx, tenant.id, { email: accounts.admin, name: NAMES.admin, role: 'admin', password: TENANT_PASSWORD }))) throw new Error(`${accounts.admin} already has an account`);
      return tenant;
    });
  }
  if (!t) {
    const partner = await getTenantBySlug(db, 'partner');
    if (!partner) throw new Error('no partner tenant: the app under test must start with the demo seed');
    const catcher = webhookCatcherUrl();
    t = await db.transaction(async (tx) => {
      const tenant = await createTenant(tx, { slug, name, timeZone: 'Europe/Amsterdam', roomOpenLeadMinutes: 30, senderEmail: `reminders@${domain}` });
      for (const r of demoRules) await createReminderRule(tx, tenant.id, { ...r, audience: [...r.audience] });
      await allowGuestsFrom(tx, partner.id, tenant.id);
      await tx.insert(notificationSettings).values({
        tenantId: tenant.id,
        policy: defaultPolicy,
        smsSender: DEMO_SMS_SENDER,
        webhookUrl: `${catcher}/hooks/${slug}`,
        webhookSecret: newWebhookSecret(),
        webhookEnabled: true,
        updatedBy: 'seed',
      });
      const ids: Partial<Record<TenantRole, string>> = {};
      for (const role of ['admin', 'staff', 'viewer'] as const) {
        const id = await ensureStaffUser(tx, tenant.id, { email: accounts[role], name: NAMES[role], role, password: TENANT_PASSWORD });
        if (!id) throw new Error(`${accounts[role]} already has an account`);
        ids[role] = id;
      }
      await tx.insert(alertSettings).values({
        tenantId: tenant.id,
        emailRecipients: [ids.admin!],
        slackWebhookUrl: `${catcher}/slack/${slug}/${randomBytes(18).toString('base64url')}`,
        updatedBy: 'seed',
      });
      return tenant;
    });
    // After the tenant is committed: seedDemoContacts runs its own transactions on the root handle.
    await seedDemoContacts(db, t.id);
  }
  return { id: t.id, slug, name: t.name, timeZone: t.timeZone, demo: false, accounts, names: NAMES, password: TENANT_PASSWORD, senderEmail: t.senderEmail, emailDomain: domain };
}
