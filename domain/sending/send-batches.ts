/**
 * How due reminders are grouped into send batches (the batch send path, server/sending/send-batch.ts): the
 * reminders one dispatcher claim took, in due order, go out as batches of one tenant and one channel — whose
 * members share a sender identity, a suppression list and a provider — of at most `max` each. A batch is formed of
 * what is due now and never waits to fill: one reminder due alone is a batch of one. The size adapts to how many are
 * due: a group is cut into batches of near-equal size (sizes differ by at most one) — at least ceil(n / `max`) of
 * them, and up to `spread` (the task slots the batches should keep busy) as long as each keeps `minSize` members —,
 * because a batch prepares all its messages (checks, render) before its first provider call: a few large batches
 * would leave slots idle and hold the first sends back, many tiny ones would lose what batching saves. 200 due at a
 * maximum of 50, spread 10, minimum 4: ten batches of 20; 20 due: five of 4; 3 due: one of 3; 1,000 due: twenty of 50.
 */

/** What the grouping needs of one claimed reminder. */
export interface BatchMember {
  id: string;
  tenantId: string;
  channel: string;
}

/** How batches are sized (see the module doc). */
export interface BatchSizing {
  /** Largest batch (< 1 is treated as 1: one message per job). */
  max: number;
  /** Batches a group may be spread over while each keeps `minSize` members (default 1: the fewest batches). */
  spread?: number;
  /** Smallest batch a group is cut into for the sake of spreading (default 1). */
  minSize?: number;
}

/** How many batches a group of `n` is cut into (see the module doc): ≥ 1 for n ≥ 1. */
export function batchCountFor(n: number, sizing: BatchSizing): number {
  const max = Math.max(1, Math.floor(sizing.max));
  const spread = Math.max(1, Math.floor(sizing.spread ?? 1));
  const minSize = Math.max(1, Math.floor(sizing.minSize ?? 1));
  return Math.max(Math.ceil(n / max), Math.min(spread, Math.floor(n / minSize)), 1);
}

/**
 * Splits `claimed` (in due order) into send batches: by (tenant, channel), each group cut into
 * {@link batchCountFor} batches of near-equal size, every batch in due order; batches ordered by their first member's
 * position in `claimed` (the earliest due first). A number for `sizing` is `{ max }`.
 * @returns every member exactly once.
 */
export function formSendBatches<T extends BatchMember>(claimed: readonly T[], sizing: number | BatchSizing): T[][] {
  const how = typeof sizing === 'number' ? { max: sizing } : sizing;
  const groups = new Map<string, T[]>();
  for (const r of claimed) {
    const key = `${r.tenantId}\u0000${r.channel}`;
    const g = groups.get(key);
    if (g) g.push(r);
    else groups.set(key, [r]);
  }
  const batches: { first: number; members: T[] }[] = [];
  const position = new Map(claimed.map((r, i) => [r, i]));
  for (const g of groups.values()) {
    const count = batchCountFor(g.length, how);
    const base = Math.floor(g.length / count);
    const larger = g.length % count;
    let at = 0;
    for (let b = 0; b < count; b++) {
      const n = base + (b < larger ? 1 : 0);
      const members = g.slice(at, at + n);
      at += n;
      batches.push({ first: position.get(members[0])!, members });
    }
  }
  return batches.sort((a, b) => a.first - b.first).map((b) => b.members);
}
