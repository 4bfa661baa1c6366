import { describe, expect, it } from 'vitest';
import { nudgeNotice, type NudgeRecord } from './action-notices';
import { deliveryStatuses, type DeliveryStatus } from '@/domain/vocabulary';

const withDelivery = (status: DeliveryStatus, statusReason: string | null = null): NudgeRecord => ({
  status: 'done',
  statusReason: null,
  delivery: { status, statusReason, address: 'ana@example.test' },
});

describe('nudgeNotice', () => {
  it('says "Sending" until the timeline shows a delivery, naming the address the page knows', () => {
    expect(nudgeNotice(null, 'ana@example.test')).toEqual({ text: 'Sending a reminder to ana@example.test…', tone: 'ok' });
    expect(nudgeNotice({ status: 'dispatched', statusReason: null, delivery: null }, 'ana@example.test').text).toBe('Sending a reminder to ana@example.test…');
    expect(nudgeNotice(withDelivery('sending'), 'x').text).toBe('Sending a reminder to ana@example.test…');
  });

  it('says "Sent to <address>." only once a provider took it, with the address the delivery used', () => {
    expect(nudgeNotice(withDelivery('accepted'), 'old@example.test')).toEqual({ text: 'Sent to ana@example.test.', tone: 'ok' });
    expect(nudgeNotice(withDelivery('delivered'), 'x').text).toBe('Sent to ana@example.test.');
  });

  it('never says "Sent to" for a message that did not go out, and points at Needs attention when a person must decide', () => {
    for (const s of deliveryStatuses.filter((s) => !['accepted', 'delivered', 'soft_bounced', 'bounced', 'complained'].includes(s))) {
      expect(nudgeNotice(withDelivery(s), 'x').text, s).not.toMatch(/^Sent to/);
    }
    expect(nudgeNotice(withDelivery('suppressed', 'bounced'), 'x')).toEqual({ text: 'Not sent: ana@example.test is on the suppression list (bounced).', tone: 'warn' });
    expect(nudgeNotice(withDelivery('unknown'), 'x')).toMatchObject({ tone: 'warn', link: { href: '/attention' } });
    expect(nudgeNotice(withDelivery('dead', '550 5.7.1 not allowed'), 'x')).toEqual({
      text: 'Not sent to ana@example.test (550 5.7.1 not allowed).',
      tone: 'warn',
      link: { href: '/attention', label: 'Open Needs attention →' },
    });
    expect(nudgeNotice({ status: 'failed', statusReason: 'template data: missing roomUrl', delivery: null }, 'ana@example.test')).toEqual({
      text: 'Not sent to ana@example.test: the reminder failed (template data: missing roomUrl).',
      tone: 'warn',
    });
    expect(nudgeNotice({ status: 'superseded', statusReason: null, delivery: null }, 'ana@example.test').text).toBe('Not sent to ana@example.test: the reminder was superseded.');
  });

  it('a bounce reported after the send is a warning, not a plain "sent"', () => {
    expect(nudgeNotice(withDelivery('bounced', 'mailbox unknown'), 'x')).toEqual({ text: 'Sent to ana@example.test, but the provider reported it bounced (mailbox unknown).', tone: 'warn' });
    expect(nudgeNotice(withDelivery('soft_bounced'), 'x').text).toBe('Sent to ana@example.test, but the provider reported it soft bounced.');
  });
});
