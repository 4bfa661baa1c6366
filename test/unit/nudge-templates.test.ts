/**
 * domain/sending/nudge-templates.ts says which reminder templates a nudge can use; the templates' own zod schemas
 * (emails/) decide what really renders. This keeps the two in step: for every reminder template, role and
 * room/no room, the template data the send path builds (server/sending/send-checks.ts `buildTemplateData`) parses
 * exactly when the domain rule says the template is available. No database needed.
 */
import { describe, expect, it } from 'vitest';
import type { BookingContext } from '@/db/queries/sending/delivery';
import { nudgeTemplateAvailability } from '@/domain/sending/nudge-templates';
import { bookingRoles, reminderTemplateIds, type BookingRole } from '@/domain/vocabulary';
import { parseTemplateData } from '@/emails';
import { buildTemplateData } from '@/server/sending/send-checks';

function context(role: BookingRole, hasRoom: boolean): BookingContext {
  const tenant = { id: 't', name: 'Demo Org', roomOpenLeadMinutes: 15, timeZone: 'Europe/Amsterdam', senderEmail: 'r@example.test' };
  return {
    tenant,
    sendingTenant: tenant,
    event: {
      title: 'Pottery',
      startsAt: new Date('2027-06-15T08:00:00Z'),
      endsAt: new Date('2027-06-15T09:00:00Z'),
      allDay: false,
      timeZone: 'Europe/Amsterdam',
      location: null,
      description: null,
      roomUrl: hasRoom ? 'https://meet.example/room' : null,
      roomOpenLeadMinutes: null,
    },
    booking: { role },
    contact: { name: 'Pat', timeZone: null, locale: 'en' },
    confirmedParticipants: 3,
  } as unknown as BookingContext;
}

describe('nudge template availability agrees with the templates’ data schemas', () => {
  for (const template of reminderTemplateIds) {
    for (const role of bookingRoles) {
      for (const hasRoom of [true, false]) {
        it(`${template} for ${role}, ${hasRoom ? 'with' : 'without'} a room`, () => {
          const parsed = parseTemplateData(template, buildTemplateData(context(role, hasRoom)));
          const a = nudgeTemplateAvailability({ role, hasRoom }).find((x) => x.template === template)!;
          expect(parsed.ok).toBe(a.ok);
          // The field the domain names is the one the schema refuses first (roomUrl before roomOpensAt).
          if (!a.ok && !parsed.ok) expect(parsed.field).toBe(a.field);
        });
      }
    }
  }
});
