/**
 * The batch send path: the due reminders of one tenant and channel (a send batch, domain/sending/send-batches.ts) in
 * one job, with the same guarantees as the single path (server/sending/send-reminder.ts) message by message.
 *
 * It goes in WAVES, as the worker's send window (server/sending/send-window.ts) has room: a message moves to `sending`
 * only when a place is free for its provider call, so a worker killed mid-batch leaves no more deliveries `unknown`
 * than the window holds (the single path's exposure at the same concurrency), never the whole batch.
 *
 *  1. For each wave, ONE transaction before its provider calls: the worlds of the wave's reminders read under the
 *     single path's locks, taken for the whole wave in one consistent order (db/queries/sending/delivery.ts
 *     `loadReminderWorldsForUpdate`: events and bookings FOR SHARE by (event id, booking id), then the reminders FOR
 *     UPDATE by id — event → booking → reminder for every message, as cancellation and rescheduling lock); for each
 *     reminder the SAME decisions as the single path (`judgeReminder`: the re-read of invariant 4, expiry, quiet
 *     hours, preferences, address, template data, language); the message keys of all that may go out claimed in ONE
 *     `INSERT … ON CONFLICT DO NOTHING RETURNING` (`claimMessageKeys`, the reminders `done` in the same statement);
 *     the suppression lists of the wave's organisations for the claimed addresses in one statement
 *     (`findSuppressions`); then for each new delivery the single path's send-time checks (`checkAttempt`:
 *     suppression, preferences, webhook endpoint, guest sender, rate slot, template, render), the moves to `sending`
 *     of all that passed, each attempt started, in one statement (`moveToSendingMany`, what `prepareAttempt`'s single
 *     move writes), and each one's guest-message audit (`finishAttempt`).
 *     The reminders of later waves stay `dispatched` (untouched) until their wave: they are judged at their own send
 *     time.
 *  2. The wave's provider calls, all at once (each gives its place in the window back when the provider answered, and
 *     the next wave starts as soon as enough places are free); each outcome is recorded as soon as it is known, those
 *     that arrive together in one transaction (group commit: {@link outcomeRecorder}) by the single path's own rules
 *     (server/sending/send-attempt.ts `recordOutcomesIn`: the plain `accepted` ones in one statement, every other
 *     outcome with `recordOutcomeIn`).
 *
 * A batch is a unit of work, never of fate: every message keeps its own delivery, attempt, lease and state, and one
 * message's failure, timeout or `unknown` changes no other's. A crash leaves each message where its own state says:
 * a reminder whose wave had not committed stays `dispatched` (the job runs again, or the stale-dispatch sweep re-adds
 * it); a delivery of a committed wave is `sending` under its lease (→ `unknown` over SMTP when the lease runs out, as
 * for a single send) or already recorded.
 *
 * When a wave's transaction throws (a bug in one message's data, a lock timeout, the database), that wave falls back
 * to the single path, one reminder at a time, each in its own transactions, so one bad message cannot hold back the
 * others; errors that remain are re-thrown together and the job is retried (each reminder's state keeps the retry
 * duplicate-free).
 */
import { claimMessageKeys } from '@/db/queries/sending/claims';
import { loadReminderWorldsForUpdate } from '@/db/queries/sending/delivery';
import { findSuppressions } from '@/db/queries/suppressions/send-time';
import { moveToSendingMany } from '@/db/queries/sending/outcomes';
import type { Outcome } from '@/channels/types';
import { checkAttempt, finishAttempt, sendingMove, type Checked } from './prepare-attempt';
import { callProvider, recordOutcome, recordOutcomesIn, type ReadyAttempt } from './send-attempt';
import { createSendWindow } from './send-window';
import { judgeReminder, sendReminder, type DeliverResult, type Judged, type SendDeps, type SendReminderResult } from './send-reminder';

/** What became of each reminder of a batch, by reminder id (the single path's result for it). */
export type BatchResult = Map<string, SendReminderResult>;

/** Send window of a batch whose caller gave none (tests, scripts): the worker's default task slots. */
const DEFAULT_WINDOW = 10;

/**
 * Sends one batch of reminders (see module doc), wave by wave as the send window (`deps.sendWindow`, else one of
 * {@link DEFAULT_WINDOW} for this batch alone) has room. Duplicate ids are sent once; ids that do not exist end
 * `skipped`. Never waits for anything but the database, the window and the provider calls of its own messages.
 * @throws AggregateError of the infrastructure errors (database down, a record that could not be written) once every
 *   message has been handled as far as it could be: graphile-worker retries the job, and every reminder's own state
 *   (`done`, a claimed message key) keeps the retry duplicate-free.
 */
export async function sendReminderBatch(deps: SendDeps, reminderIds: readonly string[]): Promise<BatchResult> {
  const ids = [...new Set(reminderIds)].sort();
  const results: BatchResult = new Map();
  const window = deps.sendWindow ?? createSendWindow(DEFAULT_WINDOW);
  const record = outcomeRecorder(deps);
  const calls: Promise<void>[] = [];
  const errors: unknown[] = [];
  for (let next = 0; next < ids.length; ) {
    const permits = await window.acquire(ids.length - next);
    const wave = ids.slice(next, next + permits);
    next += wave.length;
    let prepared: Awaited<ReturnType<typeof prepareWave>>;
    try {
      prepared = await prepareWave(deps, wave);
    } catch (waveError) {
      window.release(permits);
      // Nothing of the wave's transaction committed: every reminder of it is as it was. The single path, one by one.
      const singleErrors: unknown[] = [];
      for (const id of wave) {
        try {
          results.set(id, await sendReminder(deps, id));
        } catch (e) {
          singleErrors.push(e);
        }
      }
      if (singleErrors.length) errors.push(waveError, ...singleErrors);
      continue;
    }
    for (const [id, r] of prepared.stopped) results.set(id, r);
    window.release(permits - prepared.ready.length);
    for (const r of prepared.ready) {
      const call = callProvider(deps, r.prep).finally(() => window.release());
      calls.push(
        call
          .then((outcome) => record(r.prep, outcome))
          // Not recorded: the delivery stays `sending` under its lease, as after a crash.
          .then((result) => void results.set(r.id, { kind: 'delivered', deliveryId: r.deliveryId, result }), (e) => void errors.push(e)),
      );
    }
  }
  await Promise.all(calls);
  if (errors.length) throw new AggregateError(errors, `send batch: ${errors.length} error(s) in a batch of ${ids.length}`);
  return results;
}

/**
 * One wave of a batch, in ONE transaction: the worlds of its reminders read under the send path's locks, each judged
 * (`judgeReminder`), the message keys of those that may go out claimed in one statement, and each new delivery's
 * send-time checks (`checkAttempt`), the moves to `sending` in one statement and the guest audits (`finishAttempt`). Returns the prepared attempts and why the others stopped.
 * @throws whatever the transaction throws (nothing of the wave committed then).
 */
async function prepareWave(
  deps: SendDeps,
  ids: readonly string[],
): Promise<{ ready: { id: string; deliveryId: string; prep: ReadyAttempt }[]; stopped: BatchResult }> {
  return deps.db.transaction(async (tx) => {
    const stopped: BatchResult = new Map();
    const worlds = await loadReminderWorldsForUpdate(tx, ids);
    const now = deps.clock.now();
    const toClaim: { id: string; judged: Extract<Judged, { claim: unknown }> }[] = [];
    const keys = new Set<string>();
    for (const id of ids) {
      const w = worlds.get(id);
      if (!w) {
        stopped.set(id, { kind: 'skipped', reason: 'reminder not found' });
        continue;
      }
      const judged = await judgeReminder(deps, tx, w, now);
      if ('stop' in judged) stopped.set(id, judged.stop);
      else if (keys.has(judged.claim.messageKey)) stopped.set(id, { kind: 'already_claimed', messageKey: judged.claim.messageKey });
      else {
        keys.add(judged.claim.messageKey);
        toClaim.push({ id, judged });
      }
    }
    const claimed = await claimMessageKeys(tx, toClaim.map((c) => c.judged.claim));
    // The suppression lists of every organisation the wave's messages may go out for (the booking's, a guest's), for
    // every address it claimed, in one statement: checkAttempt checks each message against them.
    const mailed = [...claimed.values()].filter((d) => d.channel !== 'webhook');
    const tenantIds = new Set(toClaim.flatMap(({ id }) => {
      const w = worlds.get(id)!;
      return [w.tenant.id, w.sendingTenant.id, ...(w.guestTenant ? [w.guestTenant.id] : [])];
    }));
    const known = { tenantIds, hits: await findSuppressions(tx, [...tenantIds], [...new Set(mailed.map((d) => d.address))], [...new Set(mailed.map((d) => d.channel))]) };
    const checked: { id: string; c: Checked }[] = [];
    for (const { id, judged } of toClaim) {
      const d = claimed.get(judged.claim.messageKey);
      if (!d) {
        stopped.set(id, { kind: 'already_claimed', messageKey: judged.claim.messageKey });
        continue;
      }
      const c = await checkAttempt(deps, tx, worlds.get(id)!, d, undefined, now, judged.parsed, known);
      if ('stop' in c) stopped.set(id, { kind: 'delivered', deliveryId: d.id, result: c.stop });
      else checked.push({ id, c });
    }
    // The moves to `sending` of every checked message, with their attempts started, in one statement.
    const moves = checked.map(({ c }) => ({ deliveryId: c.d.id, tenantId: c.d.tenantId, ...sendingMove(deps, c) }));
    const attempts = await moveToSendingMany(tx, moves, now);
    const ready: { id: string; deliveryId: string; prep: ReadyAttempt }[] = [];
    for (const [i, { id, c }] of checked.entries()) {
      const attemptId = attempts.get(c.d.id);
      // Locked by this transaction in a sendable state (claimed just now): the guarded move cannot miss.
      if (!attemptId) throw new Error(`delivery ${c.d.id} could not move to sending from ${c.d.status}`);
      const m = moves[i];
      const moved = { ...c.d, status: 'sending' as const, statusReason: null, subject: m.subject, leaseExpiresAt: m.leaseExpiresAt, nextAttemptAt: null, attemptCount: m.attemptNo };
      ready.push({ id, deliveryId: c.d.id, prep: await finishAttempt(tx, c, moved, attemptId) });
    }
    return { ready, stopped };
  });
}

/**
 * Records the outcomes of a batch's provider calls as they arrive (group commit): the first waits for nobody; those
 * that arrive while a transaction is recording go together in the next one, in delivery id order (one lock order), each
 * by `recordOutcomesIn` (the single path's rules). When a shared transaction fails (one delivery's record cannot be written,
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
          const results = await deps.db.transaction((tx) => recordOutcomesIn(deps, tx, group));
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
