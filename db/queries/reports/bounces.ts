/**
 * Reads for asynchronous SMTP bounces (issue #10 §4, server/reports/bounces.ts): which delivery a delivery status
 * notification is about, and whether its address ended up suppressed. Writes go through server/reports/reports.ts.
 */
import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { bookings, deliveries, reminders, suppressions } from '@/db/schema';
import { isUuid } from '@/domain/ids';

/** How a bounce found its delivery (most trusted first). */
export type BounceMatch = 'verp' | 'message_key' | 'message_id';

/** The delivery a bounce names: its id and the address it was sent to. */
interface BouncedDelivery {
  id: string;
  address: string;
  matchedBy: BounceMatch;
}

/**
 * The email delivery a bounce names, trying in order: the delivery id of its verified VERP address; the
 * `X-Punctual-Message-Key` of the returned headers (deliveries.message_key); the returned `Message-ID`, which an
 * SMTP delivery keeps as its provider message id (channels/smtp.ts; `<…@punctual.local>`, domain/keys.ts
 * `messageIdFor`). Null when none names a delivery of ours (another installation's bounce, or headers cut off).
 */
export async function findBouncedDelivery(
  db: DbOrTx,
  by: { deliveryId?: string | null; messageKey?: string | null; messageId?: string | null },
): Promise<BouncedDelivery | null> {
  const tries: [BounceMatch, SQL | null][] = [
    ['verp', by.deliveryId && isUuid(by.deliveryId) ? eq(deliveries.id, by.deliveryId) : null],
    ['message_key', by.messageKey ? eq(deliveries.messageKey, by.messageKey) : null],
    ['message_id', by.messageId ? and(eq(deliveries.provider, 'smtp'), eq(deliveries.providerMessageId, by.messageId))! : null],
  ];
  for (const [matchedBy, where] of tries) {
    if (!where) continue;
    const [row] = await db
      .select({ id: deliveries.id, address: deliveries.address })
      .from(deliveries)
      .where(and(where, eq(deliveries.channel, 'email')))
      .limit(1);
    if (row) return { ...row, matchedBy };
  }
  return null;
}

/**
 * Whether `address` is on a live (not removed) email suppression list entry of the tenant that sent delivery
 * `deliveryId` — the one recorded on it (`sending_tenant_id`, issue #12), else, for a row without one, the external
 * guest's own organisation when the booking names one — or of the delivery's tenant.
 */
export async function isSuppressedForDelivery(db: DbOrTx, deliveryId: string, address: string): Promise<boolean> {
  const [d] = await db
    .select({ tenantId: deliveries.tenantId, sendingTenantId: deliveries.sendingTenantId, role: bookings.role, guestTenantId: bookings.guestTenantId })
    .from(deliveries)
    .leftJoin(reminders, eq(reminders.id, deliveries.reminderId))
    .leftJoin(bookings, eq(bookings.id, reminders.bookingId))
    .where(eq(deliveries.id, deliveryId))
    .limit(1);
  if (!d) return false;
  const sender = d.sendingTenantId ?? (d.role === 'external' && d.guestTenantId ? d.guestTenantId : d.tenantId);
  const tenantIds = [...new Set([d.tenantId, sender])];
  const [row] = await db
    .select({ id: suppressions.id })
    .from(suppressions)
    .where(
      and(
        inArray(suppressions.tenantId, tenantIds),
        sql`lower(${suppressions.address}) = lower(${address})`,
        isNull(suppressions.removedAt),
        eq(suppressions.channel, 'email'),
      ),
    )
    .limit(1);
  return !!row;
}
