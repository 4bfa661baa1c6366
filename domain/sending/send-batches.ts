/**
 * How due reminders are grouped into send batches (the batch send path, server/sending/send-batch.ts): the
 * reminders one dispatcher claim took, in due order, go out as batches of one tenant and one channel — whose
 * members share a sender identity, a suppression list and a provider — of at most `max` each. A batch is formed of
 * what is due now and never waits to fill: one reminder due alone is a batch of one. A group larger than `max` is
 * split into the fewest batches of near-equal size (sizes differ by at most one), so 60 at a maximum of 50 are two
 * batches of 30 rather than 50 and 10, and two workers share them evenly.
 */

/** What the grouping needs of one claimed reminder. */
export interface BatchMember {
  id: string;
  tenantId: string;
  channel: string;
}

/**
 * Splits `claimed` (in due order) into send batches: by (tenant, channel), each group cut into
 * ceil(n / max) batches of near-equal size, every batch in due order; batches ordered by their first member's
 * position in `claimed` (the earliest due first). `max` < 1 is treated as 1.
 * @returns every member exactly once.
 */
export function formSendBatches<T extends BatchMember>(claimed: readonly T[], max: number): T[][] {
  const size = Math.max(1, Math.floor(max));
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
    const count = Math.ceil(g.length / size);
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
