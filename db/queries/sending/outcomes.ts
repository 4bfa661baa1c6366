/**
 * Set-based outcome records for the batch send path (server/sending/send-batch.ts group commit): the `accepted`
 * outcomes of many deliveries in ONE statement — each row exactly what db/queries/sending/delivery.ts
 * `transitionDelivery(…, 'accepted', { statusReason: null, providerMessageId, acceptedAt, leaseExpiresAt: null },
 * { end })` writes for one (the guarded move from a state the transition table allows, domain/states.ts, and the
 * attempt's end) — then one statement that says which of them have delivery reports waiting.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { deliveryFromStates } from '@/domain/states';

/** One accepted provider answer: the delivery, its attempt under way, what the provider said. */
export interface AcceptedRecord {
  deliveryId: string;
  attemptId: string;
  /** The provider's id for the message (SMTP: the server's queue id when it gave one), or null. */
  providerMessageId: string | null;
  /** The provider's own words (`250 2.0.0 Ok: queued as …`), or null. */
  providerResponse: string | null;
}

/**
 * Records `records` as accepted at `at` (UTC instant): each delivery moves to `accepted` only from a state the
 * transition table allows (a delivery that moved on — recovery marked it `unknown` — is left alone, as the single
 * record leaves it), and each attempt ends `accepted` with the provider's words, in one statement. Then, in a second
 * statement (so it sees what committed while this one waited for a row lock: a report that named a delivery while
 * it was `sending` is stored, waiting for this outcome), which of the moved deliveries have any delivery report.
 * @returns the ids moved to `accepted`, and those of them that have reports (the caller adopts those one by one).
 */
export async function recordAcceptedMany(db: DbOrTx, records: readonly AcceptedRecord[], at: Date): Promise<{ moved: Set<string>; withReports: Set<string> }> {
  if (records.length === 0) return { moved: new Set(), withReports: new Set() };
  const rows = records.map((r) => ({ delivery_id: r.deliveryId, attempt_id: r.attemptId, provider_message_id: r.providerMessageId, provider_response: r.providerResponse }));
  const from = deliveryFromStates('accepted');
  const when = sql`${at.toISOString()}::timestamptz`;
  const moved = await db.execute<{ id: string }>(sql`
    with input as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(delivery_id uuid, attempt_id uuid, provider_message_id text, provider_response text)
    ), attempt_ended as (
      update delivery_attempts a set ended_at = ${when}, outcome = 'accepted', error_code = null, error_message = null,
        provider_response = i.provider_response
      from input i where a.id = i.attempt_id
      returning a.id
    )
    update deliveries d set status = 'accepted', status_reason = null, provider_message_id = i.provider_message_id,
      accepted_at = ${when}, lease_expires_at = null, updated_at = now()
    from input i
    where d.id = i.delivery_id and d.status in (${sql.join(from.map((s) => sql`${s}`), sql`, `)})
    returning d.id`);
  const ids = moved.map((r) => r.id);
  if (ids.length === 0) return { moved: new Set(), withReports: new Set() };
  const reported = await db.execute<{ delivery_id: string }>(
    sql`select distinct delivery_id from delivery_reports where delivery_id = any(${`{${ids.join(',')}}`}::uuid[])`,
  );
  return { moved: new Set(ids), withReports: new Set(reported.map((r) => r.delivery_id)) };
}
