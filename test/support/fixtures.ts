/** Small builders for test scenarios, all going through the real server use-cases. */
import type { Db } from '@/db/client';
import { createEvent } from '@/server/scheduling/events';
import { addBooking } from '@/server/scheduling/bookings';
import { createTenant } from '@/server/organisations/tenants';
import { createReminderRule } from '@/server/rules/reminder-rule';

let n = 0;

export async function tenantWithRules(
  db: Db,
  rules: { offset: string; anchor?: 'start' | 'room_open' | 'end'; window?: number; template?: 'attendee-reminder' | 'room-opening' | 'host-reminder'; audience?: ('attendee' | 'external' | 'host')[]; name?: string }[],
  zone = 'Europe/Amsterdam',
  emailProvider: 'smtp' | 'http_api' = 'smtp',
) {
  const tenant = await createTenant(db, { slug: `t${++n}-${Date.now().toString(36)}`, name: 'Test Org', timeZone: zone, emailProvider });
  const created = [];
  for (const r of rules) {
    created.push(
      await createReminderRule(db, tenant.id, {
        name: r.name ?? `rule ${r.offset}`,
        anchor: r.anchor ?? 'start',
        offset: r.offset,
        audience: r.audience ?? ['attendee', 'external'],
        template: r.template ?? 'attendee-reminder',
        lateSendWindowSeconds: r.window ?? 3600,
      }),
    );
  }
  return { tenant, rules: created };
}

export async function eventWithBooking(
  db: Db,
  tenantId: string,
  e: { startsAt: string; endsAt?: string; timeZone: string; title?: string; allDay?: boolean; roomUrl?: string },
  bookedAt: Date,
  contact: { email?: string; name?: string; timeZone?: string | null } = {},
) {
  const event = await createEvent(db, tenantId, {
    title: e.title ?? 'Workshop',
    startsAt: e.startsAt,
    endsAt: e.endsAt ?? new Date(new Date(e.startsAt).getTime() + 3_600_000).toISOString(),
    timeZone: e.timeZone,
    allDay: e.allDay ?? false,
    roomUrl: e.roomUrl ?? null,
  });
  const booking = await addBooking(
    db,
    tenantId,
    {
      eventId: event.id,
      role: 'attendee',
      contact: { email: contact.email ?? `p${++n}@example.test`, name: contact.name ?? 'Pat Doe', timeZone: contact.timeZone ?? null },
    },
    bookedAt,
  );
  return { event, booking };
}
