/**
 * The JSON body of a webhook delivery (issue #9 §5), pure. Shape (Standard Webhooks' recommended envelope:
 * `type`, `timestamp`, `data`):
 *
 * ```json
 * { "type": "booking_confirmed" | … | "reminder",
 *   "timestamp": "<UTC instant the change happened, ISO-8601>",
 *   "data": { "messageKey", "tenant": { "slug", "name" },
 *             "event": { "id", "title", "startsAt", "endsAt", "timeZone", "allDay", "location", "roomUrl", "status", "scheduleVersion" },
 *             "booking": { "id", "role", "status" },
 *             "recipient": { "contactId", "name", "email", "phone", "locale", "timeZone" },
 *             "change": <the domain event's payload: previous/new timing, reason> | null } }
 * ```
 * Instants are UTC ISO strings; zones are IANA names. The same message key is the `webhook-id` header.
 */
interface WebhookPayloadInput {
  messageKey: string;
  type: string;
  occurredAt: Date;
  tenant: { slug: string; name: string };
  event: { id: string; title: string; startsAt: Date; endsAt: Date; timeZone: string; allDay: boolean; location: string | null; roomUrl: string | null; status: string; scheduleVersion: number };
  booking: { id: string; role: string; status: string };
  recipient: { contactId: string; name: string; email: string; phone: string | null; locale: string; timeZone: string | null };
  change: unknown;
}

/**
 * Builds the webhook body (see module doc). Every field is picked by name: a caller passing a whole database
 * row never leaks its internals (row versions, who edited it) to a third party.
 */
export function webhookPayload(i: WebhookPayloadInput) {
  const e = i.event;
  return {
    type: i.type,
    timestamp: i.occurredAt.toISOString(),
    data: {
      messageKey: i.messageKey,
      tenant: { slug: i.tenant.slug, name: i.tenant.name },
      event: {
        id: e.id,
        title: e.title,
        startsAt: e.startsAt.toISOString(),
        endsAt: e.endsAt.toISOString(),
        timeZone: e.timeZone,
        allDay: e.allDay,
        location: e.location,
        roomUrl: e.roomUrl,
        status: e.status,
        scheduleVersion: e.scheduleVersion,
      },
      booking: { id: i.booking.id, role: i.booking.role, status: i.booking.status },
      recipient: {
        contactId: i.recipient.contactId,
        name: i.recipient.name,
        email: i.recipient.email,
        phone: i.recipient.phone,
        locale: i.recipient.locale,
        timeZone: i.recipient.timeZone,
      },
      change: i.change ?? null,
    },
  };
}
