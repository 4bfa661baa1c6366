import { describe, expect, it } from 'vitest';
import { nudgeTemplateAvailability, nudgeTemplateRefusal } from './nudge-templates';
import { bookingRoles, reminderTemplateIds } from '@/domain/vocabulary';

describe('nudge templates: which reminder templates can render for this participant and event', () => {
  it('covers every reminder template, in order', () => {
    expect(nudgeTemplateAvailability({ role: 'attendee', hasRoom: true }).map((a) => a.template)).toEqual([...reminderTemplateIds]);
  });

  it.each([
    // role, hasRoom, offered
    ['attendee', false, ['attendee-reminder', 'confirmation-request']],
    ['attendee', true, ['attendee-reminder', 'room-opening', 'confirmation-request']],
    ['external', false, ['attendee-reminder', 'confirmation-request']],
    ['external', true, ['attendee-reminder', 'room-opening', 'confirmation-request']],
    ['host', false, ['attendee-reminder', 'host-reminder']],
    ['host', true, ['attendee-reminder', 'room-opening', 'host-reminder']],
  ] as const)('%s, room %s → %j', (role, hasRoom, offered) => {
    expect(nudgeTemplateAvailability({ role, hasRoom }).filter((a) => a.ok).map((a) => a.template)).toEqual(offered);
  });

  it('attendee-reminder renders for every role, with or without a room', () => {
    for (const role of bookingRoles) for (const hasRoom of [true, false]) expect(nudgeTemplateRefusal('attendee-reminder', { role, hasRoom })).toBeNull();
  });

  it('room-opening without a room is refused naming the missing room', () => {
    expect(nudgeTemplateRefusal('room-opening', { role: 'attendee', hasRoom: false })).toBe('template: room-opening cannot be used here — this event has no online room (roomUrl)');
    expect(nudgeTemplateAvailability({ role: 'host', hasRoom: false })[1]).toEqual({ template: 'room-opening', ok: false, field: 'roomUrl', reason: 'this event has no online room' });
    expect(nudgeTemplateRefusal('room-opening', { role: 'attendee', hasRoom: true })).toBeNull();
  });

  it('host-reminder is for hosts only', () => {
    expect(nudgeTemplateRefusal('host-reminder', { role: 'attendee', hasRoom: true })).toBe('template: host-reminder cannot be used here — it is written for hosts (role)');
    expect(nudgeTemplateRefusal('host-reminder', { role: 'external', hasRoom: true })).not.toBeNull();
    expect(nudgeTemplateRefusal('host-reminder', { role: 'host', hasRoom: false })).toBeNull();
  });

  it('a notification template or an unknown id is not a nudge template', () => {
    expect(nudgeTemplateRefusal('booking-confirmed', { role: 'attendee', hasRoom: true })).toMatch(/^template: "booking-confirmed" is not a reminder template/);
    expect(nudgeTemplateRefusal('__proto__', { role: 'attendee', hasRoom: true })).toMatch(/is not a reminder template/);
  });
});
