/**
 * The batch send path: the due reminders of one tenant and channel (a send batch, domain/sending/send-batches.ts) in
 * one job, with the same guarantees as the single path (server/sending/send-reminder.ts) message by message.
 *
 *  1. ONE transaction before any provider call: the worlds of all the batch's reminders read under the single
 *     path's locks, taken for the whole batch in one consistent order (db/queries/sending/delivery.ts
 *     `loadReminderWorldsForUpdate`: events and bookings FOR SHARE by (event id, booking id), then the reminders FOR
 *     UPDATE by id — event → booking → reminder for every message, as cancellation and rescheduling lock); for each
 *     reminder the SAME decisions as the single path (`judgeReminder`: the re-read of invariant 4, expiry, quiet
 *     hours, preferences, address, template data, language); the message keys of all that may go out claimed in ONE
 *     `INSERT … ON CONFLICT DO NOTHING RETURNING` (`claimMessageKeys`, the reminders `done` in the same statement);
 *     then for each new delivery the single path's send-time checks and move to `sending` (`prepareAttempt`:
 *     suppression, preferences, webhook endpoint, guest sender, rate slot, template, render, lease, attempt start).
 *  2. The provider calls of the prepared messages, all at once (the adapters bound them: the SMTP channel's pool
 *     queues what exceeds its connections, and a wait that outlasts the provider timeout ends `retrying`, never
 *     `unknown`, because nothing was sent); each outcome is recorded as soon as it is known, those that arrive
 *     together in one transaction (group commit: {@link outcomeRecorder}), each with the single path's own code
 *     (server/sending/send-attempt.ts `recordOutcomeIn`).
 *
 * A batch is a unit of work, never of fate: every message keeps its own delivery, attempt, lease and state, and one
 * message's failure, timeout or `unknown` changes no other's. A crash leaves each message where its own state says:
 * before step 1 commits, nothing of it happened (the reminders stay `dispatched`: the job runs again, or the
 * stale-dispatch sweep re-adds them); after it, each delivery is `sending` under its lease (→ `unknown` over SMTP
 * when the lease runs out, as for a single send) or already recorded.
 *
 * When step 1's transaction throws (a bug in one message's data, a lock timeout, the database), the batch falls back
 * to the single path, one reminder at a time, each in its own transactions, so one bad message cannot hold back the
 * others; errors that remain are re-thrown together and the job is retried (each reminder's state keeps the retry
 * duplicate-free).
 */
import { claimMessageKeys, loadReminderWorldsForUpdate } from '@/db/queries/sending/delivery';
import type { Outcome } from '@/channels/types';
import { prepareAttempt } from './prepare-attempt';
import { callProvider, recordOutcome, recordOutcomeIn, type ReadyAttempt } from './send-attempt';
import { judgeReminder, sendReminder, type DeliverResult, type Judged, type SendDeps, type SendReminderResult } from './send-reminder';

/** What became of each reminder of a batch, by reminder id (the single path's result for it). */
export type BatchResult = Map<string, SendReminderResult>;

/**
 * Sends one batch of reminders (see module doc). Duplicate ids are sent once; ids that do not exist end
 * `skipped`. Never waits for anything but the database and the provider calls of its own messages.
 * @throws AggregateError of the infrastructure errors (database down, a record that could not be written) once every
 *   message has been handled as far as it could be: graphile-worker retries the job, and every reminder's own state
 *   (`done`, a claimed message key) keeps the retry duplicate-free.
 */
export async function sendReminderBatch(deps: SendDeps, reminderIds: readonly string[]): Promise<BatchResult> {
  const ids = [...new Set(reminderIds)].sort();
  const results: BatchResult = new Map();
  let ready: { id: string; deliveryId: string; prep: ReadyAttempt }[];
  try {
    ready = await deps.db.transaction(async (tx) => {
      const worlds = await loadReminderWorldsForUpdate(tx, ids);
      const now = deps.clock.now();
      const toClaim: { id: string; judged: Extract<Judged, { claim: unknown }> }[] = [];
      const keys = new Set<string>();
      for (const id of ids) {
        const w = worlds.get(id);
        if (!w) {
          results.set(id, { kind: 'skipped', reason: 'reminder not found' });
          continue;
        }
        const judged = await judgeReminder(deps, tx, w, now);
        if ('stop' in judged) results.set(id, judged.stop);
        else if (keys.has(judged.claim.messageKey)) results.set(id, { kind: 'already_claimed', messageKey: judged.claim.messageKey });
        else {
          keys.add(judged.claim.messageKey);
          toClaim.push({ id, judged });
        }
      }
      const claimed = await claimMessageKeys(tx, toClaim.map((c) => c.judged.claim));
      const prepared: typeof ready = [];
      for (const { id, judged } of toClaim) {
        const d = claimed.get(judged.claim.messageKey);
        if (!d) {
          results.set(id, { kind: 'already_claimed', messageKey: judged.claim.messageKey });
          continue;
        }
        const prep = await prepareAttempt(deps, tx, worlds.get(id)!, d, undefined, now, judged.parsed);
        if ('stop' in prep) results.set(id, { kind: 'delivered', deliveryId: d.id, result: prep.stop });
        else prepared.push({ id, deliveryId: d.id, prep });
      }
      return prepared;
    });
  } catch (batchError) {
    // Nothing of the transaction committed: every reminder is as it was. The single path, one by one.
    results.clear();
    const errors: unknown[] = [];
    for (const id of ids) {
      try {
        results.set(id, await sendReminder(deps, id));
      } catch (e) {
        errors.push(e);
      }
    }
    if (errors.length) throw new AggregateError([batchError, ...errors], `send batch: ${errors.length} of ${ids.length} reminder(s) failed`);
    return results;
  }
  const record = outcomeRecorder(deps);
  const settled = await Promise.allSettled(ready.map(async (r) => record(r.prep, await callProvider(deps, r.prep))));
  const errors: unknown[] = [];
  settled.forEach((s, i) => {
    const r = ready[i];
    if (s.status === 'fulfilled') results.set(r.id, { kind: 'delivered', deliveryId: r.deliveryId, result: s.value });
    // The outcome could not be recorded: the delivery stays `sending` under its lease, as after a crash.
    else errors.push(s.reason);
  });
  if (errors.length) throw new AggregateError(errors, `send batch: ${errors.length} of ${ready.length} outcome(s) could not be recorded`);
  return results;
}

/**
 * Records the outcomes of a batch's provider calls as they arrive (group commit): the first waits for nobody; those
 * that arrive while a transaction is recording go together in the next one, in delivery id order (one lock order), each
 * with the single path's `recordOutcomeIn`. When a shared transaction fails (one delivery's record cannot be written,
 * a deadlock, the database), nothing of it committed and each of its outcomes is recorded again in its own transaction,
 * so one message's record never decides another's.
 * @returns a function that records one outcome and resolves with what the single path returns for it (rejects only when
 *   that message's own transaction failed too: its delivery stays `sending` under its lease, as after a crash).
 */
function outcomeRecorder(deps: SendDeps): (prep: ReadyAttempt, outcome: Outcome) => Promise<DeliverResult> {
  type Item = { prep: ReadyAttempt; outcome: Outcome; resolve: (r: DeliverResult) => void; reject: (e: unknown) => void };
  let pending: Item[] = [];
  let running = false;
  const kick = () => {
    if (running || pending.length === 0) return;
    running = true;
    void run();
  };
  const run = async () => {
    try {
      while (pending.length) {
        const group = pending.sort((a, b) => (a.prep.d.id < b.prep.d.id ? -1 : a.prep.d.id > b.prep.d.id ? 1 : 0));
        pending = [];
        try {
          const results = await deps.db.transaction(async (tx) => {
            const out: DeliverResult[] = [];
            for (const it of group) out.push(await recordOutcomeIn(deps, tx, it.prep, it.outcome));
            return out;
          });
          group.forEach((it, i) => it.resolve(results[i]));
        } catch {
          await Promise.all(group.map((it) => recordOutcome(deps, it.prep, it.outcome).then(it.resolve, it.reject)));
        }
      }
    } finally {
      running = false;
      kick();
    }
  };
  return (prep, outcome) =>
    new Promise<DeliverResult>((resolve, reject) => {
      pending.push({ prep, outcome, resolve, reject });
      kick();
    });
}
