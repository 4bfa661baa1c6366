import { describe, expect, it } from 'vitest';
import { firstDayChecklist, rulePreset, RULE_PRESETS, type FirstDayFacts } from './first-day';

const fresh: FirstDayFacts = { senderVerified: false, activeRules: 0, events: 0, testMessages: 0, staffAccounts: 1, pendingInvitations: 0, dismissedAt: null };
const ticked = (f: Partial<FirstDayFacts>) => Object.fromEntries(firstDayChecklist({ ...fresh, ...f }).items.map((i) => [i.id, i.done]));

describe('firstDayChecklist', () => {
  it('a fresh organisation: five steps, none done, shown', () => {
    const c = firstDayChecklist(fresh);
    expect(c.items.map((i) => i.id)).toEqual(['sender', 'rule', 'event', 'test', 'colleague']);
    expect([c.done, c.show]).toEqual([0, true]);
    expect(c.items.map((i) => i.href)).toEqual(['/settings', '/rules/new', '/events/new', '/events', '/staff']);
  });
  it.each([
    [{ senderVerified: true }, 'sender'],
    [{ activeRules: 1 }, 'rule'],
    [{ events: 1 }, 'event'],
    [{ testMessages: 1 }, 'test'],
    [{ staffAccounts: 2 }, 'colleague'],
    [{ pendingInvitations: 1 }, 'colleague'],
  ] as const)('%o ticks %s and nothing else', (facts, id) => {
    const t = ticked(facts);
    expect(Object.entries(t).filter(([, done]) => done).map(([k]) => k)).toEqual([id]);
  });
  it('hidden when every step is done, or once dismissed', () => {
    const all = { senderVerified: true, activeRules: 4, events: 2, testMessages: 1, staffAccounts: 3 };
    expect(firstDayChecklist({ ...fresh, ...all })).toMatchObject({ show: false, done: 5 });
    expect(firstDayChecklist({ ...fresh, dismissedAt: new Date('2027-01-01T00:00:00Z') })).toMatchObject({ show: false, done: 0 });
  });
  it('offers the three most common rules as presets; an unknown preset is none', () => {
    expect(RULE_PRESETS.map((p) => [p.id, p.anchor, p.offset, p.template])).toEqual([
      ['day-before', 'start', '-P1D', 'attendee-reminder'],
      ['two-hours', 'start', '-PT2H', 'attendee-reminder'],
      ['room-opens', 'room_open', 'PT0S', 'room-opening'],
    ]);
    expect(rulePreset('two-hours')?.name).toBe('Two hours before');
    expect(rulePreset('drop table')).toBeNull();
    expect(rulePreset(undefined)).toBeNull();
  });
});
