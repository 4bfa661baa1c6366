import { describe, expect, it } from 'vitest';
import { webhookPayload } from './webhook-payload';

describe('webhookPayload', () => {
  it('carries exactly the documented fields, even when handed whole database rows', () => {
    const row = {
      id: 'e1',
      title: 'Tile painting',
      startsAt: new Date('2027-07-01T09:00:00Z'),
      endsAt: new Date('2027-07-01T11:00:00Z'),
      timeZone: 'Europe/Lisbon',
      allDay: false,
      location: null,
      roomUrl: null,
      status: 'scheduled',
      scheduleVersion: 2,
      // row internals that must not leave the building
      tenantId: 't1',
      version: 7,
      updatedBy: 'staff@demo.punctual.local',
      description: 'internal notes',
    };
    const body = webhookPayload({
      messageKey: 'ntf:x',
      type: 'event_rescheduled',
      occurredAt: new Date('2027-06-02T12:00:00Z'),
      tenant: { slug: 'demo', name: 'Demo', id: 't1' } as never,
      event: row,
      booking: { id: 'b1', role: 'attendee', status: 'confirmed', version: 3 } as never,
      recipient: { contactId: 'c1', name: 'Ana', email: 'ana@x.test', phone: null, locale: 'en', timeZone: null, updatedBy: 'x' } as never,
      change: { reason: null },
    });
    expect(body).toEqual({
      type: 'event_rescheduled',
      timestamp: '2027-06-02T12:00:00.000Z',
      data: {
        messageKey: 'ntf:x',
        tenant: { slug: 'demo', name: 'Demo' },
        event: { id: 'e1', title: 'Tile painting', startsAt: '2027-07-01T09:00:00.000Z', endsAt: '2027-07-01T11:00:00.000Z', timeZone: 'Europe/Lisbon', allDay: false, location: null, roomUrl: null, status: 'scheduled', scheduleVersion: 2 },
        booking: { id: 'b1', role: 'attendee', status: 'confirmed' },
        recipient: { contactId: 'c1', name: 'Ana', email: 'ana@x.test', phone: null, locale: 'en', timeZone: null },
        change: { reason: null },
      },
    });
    expect(JSON.stringify(body)).not.toContain('staff@demo');
  });
});
