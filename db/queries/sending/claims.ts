/**
 * The batch send path's claim of many message keys at once (server/sending/send-batch.ts): what
 * db/queries/sending/delivery.ts `claimMessageKey` does for one reminder, in one statement for a wave.
 */
import { sql } from 'drizzle-orm';
import { prebuilt } from '@/db/prebuilt';
import type { DbOrTx } from '@/db/client';
import { deliveries, type Delivery } from '@/db/schema';
import { reminderFromStates } from '@/domain/states';
import { oneOf, uuidLiteral, type ClaimInput } from './delivery';

/** The deliveries of {@link claimMessageKeys}' new ids (placeholder `ids`: a `uuid[]` literal), built once. */
const deliveriesByIds = prebuilt((db) =>
  db
    .select()
    .from(deliveries)
    .where(sql`${deliveries.id} = any(${sql.placeholder('ids')}::uuid[])`)
    .prepare('deliveries_by_ids'),
);

/**
 * The batch claim (invariant 3): the message keys of many reminders in ONE `INSERT … SELECT … ON CONFLICT
 * (message_key) DO NOTHING RETURNING` — each row exactly what {@link claimMessageKey} would insert for it (the
 * organisation's own text version in effect now fixed with it, status `claimed`) — and, in the same statement, every
 * one of those reminders moved to `done` where the transition table allows it (whether or not its key was free, as
 * the single claim with `reminderDone`). One statement text whatever the batch size (the rows travel as one JSON
 * parameter), then one select of the new rows (as the typed {@link Delivery}). A key already claimed (another worker,
 * a redelivered job, an earlier run, another batch) gets no row; two rows of one key in the same call: the first one
 * claims it.
 * @returns the new deliveries by message key (a key absent from the map was already claimed).
 */
export async function claimMessageKeys(db: DbOrTx, claims: readonly ClaimInput[]): Promise<Map<string, Delivery>> {
  const out = new Map<string, Delivery>();
  if (claims.length === 0) return out;
  const rows = claims.map((c, ord) => ({
    ord,
    tenant_id: c.tenantId,
    reminder_id: c.reminderId,
    message_key: c.messageKey,
    channel: c.channel,
    address: c.address,
    template: c.template,
    message_locale: c.messageLocale,
    locale_reason: c.localeReason,
    provider: c.provider,
    lease_expires_at: c.leaseExpiresAt.toISOString(),
    sending_tenant_id: c.sendingTenantId,
    invite_sequence: c.inviteSequence,
  }));
  const inserted = await db.execute<{ id: string }>(sql`
    with input as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(
        ord int, tenant_id uuid, reminder_id uuid, message_key text, channel text, address text, template text, message_locale text,
        locale_reason text, provider text, lease_expires_at timestamptz, sending_tenant_id uuid, invite_sequence int)
    ), reminder_done as (
      update reminders set status = 'done', status_reason = null, updated_at = now()
      where id = any(array(select reminder_id from input)) and status in ${oneOf(reminderFromStates('done'))}
      returning id
    )
    insert into deliveries (tenant_id, reminder_id, message_key, channel, address, template, message_locale, locale_reason,
      message_text_version, provider, lease_expires_at, sending_tenant_id, invite_sequence, status)
    select i.tenant_id, i.reminder_id, i.message_key, i.channel::channel, i.address, i.template, i.message_locale, i.locale_reason,
      case when i.message_locale is null then null else (
        select case when mt.status = 'published' then mt.version end from message_texts mt
        where mt.tenant_id = i.tenant_id and mt.kind = i.template and mt.locale = i.message_locale and mt.version is not null
        order by mt.version desc limit 1) end,
      i.provider::provider, i.lease_expires_at, i.sending_tenant_id, i.invite_sequence, 'claimed'
    from input i
    order by i.ord
    on conflict (message_key) do nothing
    returning id`);
  if (inserted.length === 0) return out;
  const created = await deliveriesByIds(db, { ids: uuidLiteral(inserted.map((r) => r.id)) });
  for (const d of created) out.set(d.messageKey, d);
  return out;
}
