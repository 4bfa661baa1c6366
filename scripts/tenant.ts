/**
 * `npm run tenant -- create|link|list …` — set up an organisation from the command line (issue #13).
 *
 *   create --slug SLUG --name NAME --time-zone ZONE --sender EMAIL --admin-email EMAIL [--admin-name NAME] [--sender-name NAME]
 *       The organisation, its first admin (role admin, no password) and a one-time sign-in link (24 hours, works
 *       once) in one transaction (server/organisations/tenant-setup.ts). The link is printed once, on stdout; the admin opens it
 *       and chooses a password on /set-password.
 *   link --email EMAIL
 *       A fresh one-time link for an existing account (e.g. when the first one expired); older unused links stop working.
 *   list
 *       Every organisation with its numbers of admins, staff accounts and events.
 *
 * Database: DATABASE_URL, else the running `npm start`'s embedded PostgreSQL (scripts/lib.ts resolveDatabaseUrl).
 * Links start with PUNCTUAL_PUBLIC_URL, else the running `npm start`'s public URL (`.data/local.env`), else
 * http://127.0.0.1:$PORT (domain/platform/public-url.ts).
 *
 * Exit codes (as scripts/import-ics.ts): 0 done; 1 refused or failed — a bad value (one line on stderr naming the
 * flag), a slug or address already in use, an unknown address, a database error — and nothing was written;
 * 2 bad usage (unknown subcommand or flag; the usage on stderr) or no database to talk to.
 */
import { parseArgs } from 'node:util';
import { createDb } from '@/db/client';
import { databaseNowMs } from '@/db/queries/platform/clock';
import { tenantOverview } from '@/db/queries/organisations/tenant-setup';
import { publicBaseUrl } from '@/domain/platform/public-url';
import { formatStaffTime } from '@/domain/staff-time';
import { linkValidityLine, setPasswordUrl, validateTenantCreate } from '@/domain/organisations/tenant-setup';
import { AppError } from '@/server/platform/errors';
import { createTenantWithAdmin, issueSignInLink } from '@/server/organisations/tenant-setup';
import { senderFor } from '@/server/organisations/sender-identity';
import { errorMessage, resolveDatabaseUrl, runningAppPublicUrl } from './lib';

const USAGE = `usage: npm run tenant -- create --slug SLUG --name NAME --time-zone ZONE --sender EMAIL --admin-email EMAIL [--admin-name NAME] [--sender-name NAME]
       npm run tenant -- link --email EMAIL
       npm run tenant -- list

  create   a new organisation with its first admin; prints a one-time link (24 hours) where the admin chooses a password
             --slug SLUG          lowercase letters, digits and dashes (e.g. acme)
             --name NAME          the organisation's name (e.g. "Acme Events")
             --time-zone ZONE     IANA time zone of its events (e.g. Europe/Dublin)
             --sender EMAIL       From address of its reminders
             --admin-email EMAIL  the first admin's address (must not have an account yet)
             --admin-name NAME    the first admin's name (default: the part of the address before the @)
             --sender-name NAME   From name of its mail (default: the organisation's name)
  link     a fresh one-time link for an existing account (older unused links stop working)
             --email EMAIL
  list     every organisation with its numbers of admins, staff and events`;

function usage(problem: string): never {
  process.stderr.write(`${problem}\n${USAGE}\n`);
  process.exit(2);
}

/** One line on stderr, exit 1. */
function refuse(line: string): number {
  process.stderr.write(`${line.replace(/\s*\n\s*/g, ' ')}\n`);
  return 1;
}

const OPTIONS = {
  create: {
    slug: { type: 'string' },
    name: { type: 'string' },
    'time-zone': { type: 'string' },
    sender: { type: 'string' },
    'sender-name': { type: 'string' },
    'admin-email': { type: 'string' },
    'admin-name': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
  link: { email: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  list: { help: { type: 'boolean', short: 'h' } },
} as const;

type Command = keyof typeof OPTIONS;

/** The base URL links start with (module doc). @throws Error naming PUNCTUAL_PUBLIC_URL when it is invalid. */
function linkBase(): string {
  if (process.env.PUNCTUAL_PUBLIC_URL?.trim()) return publicBaseUrl(process.env);
  const running = process.env.DATABASE_URL ? null : runningAppPublicUrl();
  return publicBaseUrl(running ? { PUNCTUAL_PUBLIC_URL: running } : process.env);
}

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    if (command === undefined) usage('missing subcommand: create, link or list');
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (!Object.hasOwn(OPTIONS, command)) usage(`unknown subcommand "${command.slice(0, 40)}": use create, link or list`);
  const cmd = command as Command;
  let values: Record<string, string | boolean | undefined>;
  try {
    const parsed = parseArgs({ args: rest, options: OPTIONS[cmd], allowPositionals: false, strict: true });
    values = parsed.values as Record<string, string | boolean | undefined>;
  } catch (e) {
    usage((e as Error).message.split('\n')[0]);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }

  // Everything that can be checked without the database is checked before connecting.
  const setup = cmd === 'create' ? validateTenantCreate(values as Record<string, string | undefined>) : null;
  if (setup && !setup.ok) return refuse(setup.message);
  if (cmd === 'link' && !(typeof values.email === 'string' && values.email.trim())) return refuse('--email: required (the address of the account that needs a new link)');
  let base: string;
  try {
    base = linkBase();
  } catch (e) {
    return refuse((e as Error).message);
  }

  const url = resolveDatabaseUrl();
  if (!url) {
    process.stderr.write('DATABASE_URL is not set and no `npm start` database is running here: start the app with `npm start` (in another terminal), or set DATABASE_URL\n');
    return 2;
  }
  const handle = createDb(url, { max: 2 });
  try {
    const now = new Date(await databaseNowMs(handle.db));
    if (cmd === 'list') {
      const rows = await tenantOverview(handle.db);
      if (rows.length === 0) {
        process.stdout.write('No organisations yet. Create one with: npm run tenant -- create --slug … (see --help)\n');
        return 0;
      }
      const lines = rows.map((r) => [r.slug, r.name, r.timeZone, r.senderEmail, String(r.admins), String(r.staff), String(r.events), formatStaffTime(r.createdAt, r.timeZone)]);
      const head = ['SLUG', 'NAME', 'ZONE', 'SENDER', 'ADMINS', 'STAFF', 'EVENTS', 'CREATED'];
      const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
      for (const l of [head, ...lines]) process.stdout.write(`${l.map((c, i) => (i === l.length - 1 ? c : c.padEnd(widths[i]))).join('  ')}\n`);
      return 0;
    }
    if (cmd === 'create' && setup?.ok) {
      const s = setup.value;
      const { tenant, link } = await createTenantWithAdmin(handle.db, s, now);
      process.stdout.write(
        [
          `Created organisation "${tenant.slug}": ${tenant.name}, time zone ${tenant.timeZone}, mail from ${tenant.senderName ?? tenant.name} <${tenant.senderEmail}>.`,
          // The operator's --sender counts as verified, unless another organisation holds it verified already.
          ...(senderFor(tenant).proven ? [] : [`  ${tenant.senderEmail} is another organisation’s verified sender address: until this one verifies it (settings page), its mail goes from ${senderFor(tenant).from.address}.`]),
          `First admin: ${s.adminName} <${s.adminEmail}> (role admin, no password yet).`,
          '',
          `One-time sign-in link for ${s.adminEmail} — open it to choose a password:`,
          `  ${setPasswordUrl(base, link.token)}`,
          `  ${linkValidityLine(link.expiresAt, now, tenant.timeZone)}. Expired? npm run tenant -- link --email ${s.adminEmail}`,
          '',
          'No reminder rules yet — add them on the Reminder rules page (nothing is sent until there is one).',
          `Import events: npm run import:ics -- FILE.ics --tenant ${tenant.slug}`,
          '',
        ].join('\n'),
      );
      return 0;
    }
    const { tenant, user, link } = await issueSignInLink(handle.db, String(values.email), now);
    process.stdout.write(
      [
        `One-time sign-in link for ${user.name} <${user.email}> (organisation "${tenant.slug}") — open it to choose a password:`,
        `  ${setPasswordUrl(base, link.token)}`,
        `  ${linkValidityLine(link.expiresAt, now, tenant.timeZone)}; older unused links of this account no longer work.`,
        '',
      ].join('\n'),
    );
    return 0;
  } catch (e) {
    if (e instanceof AppError) return refuse(e.field === 'email' && e.code === 'not_found' ? `--email: ${e.message}` : e.field === 'admin-email' ? `--admin-email: ${e.message}` : e.message);
    return refuse(`tenant ${cmd} failed: ${errorMessage(e)}`);
  } finally {
    await handle.close();
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`tenant failed: ${errorMessage(e)}\n`);
    process.exit(1);
  },
);
