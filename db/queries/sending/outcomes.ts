/**
 * Set-based writes of the batch send path (server/sending/send-batch.ts), each row exactly what
 * db/queries/sending/delivery.ts `transitionDelivery` writes for one delivery (the guarded move from a state the
 * transition table allows, domain/states.ts, with the attempt's start or end in the same statement):
 *  - {@link moveToSendingMany}: a wave's checked deliveries to `sending` under their leases, each attempt started;
 *  - {@link recordAcceptedMany}: the `accepted` outcomes of a group commit, each attempt ended, then which of them have
 *    delivery reports waiting.
 * The rows travel as one JSON parameter: one statement text whatever the count.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { deliveryFromStates } from '@/domain/states';

/** `status in (…)` labels of the states a delivery may move to `status` from. */
const fromStates = (status: Parameters<typeof deliveryFromStates>[0]) => sql.join(deliveryFromStates(status).map((s) => sql`${s}`), sql`, `);

/** One checked delivery's move to `sending`: what the single move writes (prepare-attempt.ts `sendingMove`). */
export interface SendingMove {
  deliveryId: string;
  tenantId: string;
  subject: string;
  /** End of the `sending` lease (UTC instant): after it, recovery marks the delivery `unknown`. */
  leaseExpiresAt: Date;
  /** The attempt's number (attempts so far + 1). */
  attemptNo: number;
}

/**
 * Moves each delivery of `moves` to `sending` (status reason cleared, subject, lease, no next attempt, one more attempt
 * counted) where the transition table allows it, and starts its attempt record at `startedAt` (UTC instant) — only for
 * the deliveries that move (same snapshot; the caller holds their row locks) — in one statement.
 * @returns the started attempt's id by delivery id (a delivery absent from the map did not move).
 */
export async function moveToSendingMany(db: DbOrTx, moves: readonly SendingMove[], startedAt: Date): Promise<Map<string, string>> {
  if (moves.length === 0) return new Map();
  const rows = moves.map((m) => ({
    delivery_id: m.deliveryId,
    attempt_id: randomUUID(),
    tenant_id: m.tenantId,
    attempt_no: m.attemptNo,
    subject: m.subject,
    lease_expires_at: m.leaseExpiresAt.toISOString(),
  }));
  const moved = await db.execute<{ id: string; attempt_id: string }>(sql`
    with input as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(delivery_id uuid, attempt_id uuid, tenant_id uuid, attempt_no int, subject text, lease_expires_at timestamptz)
    ), attempt_started as (
      insert into delivery_attempts (id, tenant_id, delivery_id, attempt_no, started_at)
      select i.attempt_id, i.tenant_id, d.id, i.attempt_no, ${startedAt.toISOString()}::timestamptz
      from input i join deliveries d on d.id = i.delivery_id
      where d.status in (${fromStates('sending')})
      returning id
    )
    update deliveries d set status = 'sending', status_reason = null, subject = i.subject, lease_expires_at = i.lease_expires_at,
      next_attempt_at = null, attempt_count = d.attempt_count + 1, updated_at = now()
    from input i
    where d.id = i.delivery_id and d.status in (${fromStates('sending')})
    returning d.id, i.attempt_id`);
  return new Map(moved.map((r) => [r.id, r.attempt_id]));
}

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
    where d.id = i.delivery_id and d.status in (${fromStates('accepted')})
    returning d.id`);
  const ids = moved.map((r) => r.id);
  if (ids.length === 0) return { moved: new Set(), withReports: new Set() };
  const reported = await db.execute<{ delivery_id: string }>(
    sql`select distinct delivery_id from delivery_reports where delivery_id = any(${`{${ids.join(',')}}`}::uuid[])`,
  );
  return { moved: new Set(ids), withReports: new Set(reported.map((r) => r.delivery_id)) };
}
