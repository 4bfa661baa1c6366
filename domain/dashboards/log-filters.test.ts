import { describe, expect, it } from 'vitest';
import { auditFilterOf, auditParams, deliveriesParams, deliveryFilterOf, parseAuditQuery, parseDeliveriesQuery, withQuery } from './log-filters';

describe('log filters (the page and its CSV export parse the same way)', () => {
  it('a query string and Next searchParams give the same filters; malformed values are dropped', () => {
    const qs = 'q=%20Zo%C3%AB%20&status=accepted&channel=pigeon&from=2026-12-01&to=2026-13-40&page=3';
    const a = parseDeliveriesQuery(new URLSearchParams(qs));
    const b = parseDeliveriesQuery({ q: [' Zoë ', 'x'], status: 'accepted', channel: 'pigeon', from: '2026-12-01', to: '2026-13-40', page: '3' });
    expect(a).toEqual(b);
    expect(a).toEqual({ page: 3, q: 'Zoë', status: 'accepted', channel: undefined, from: '2026-12-01', to: undefined });
    expect(deliveriesParams(a)).toEqual({ q: 'Zoë', status: 'accepted', from: '2026-12-01' });
    expect(withQuery('/api/exports/deliveries', deliveriesParams(a))).toBe('/api/exports/deliveries?q=Zo%C3%AB&status=accepted&from=2026-12-01');
    expect(withQuery('/api/exports/audit', {})).toBe('/api/exports/audit');
  });

  it('dates are whole local days in the tenant zone, `to` inclusive', () => {
    const f = parseAuditQuery(new URLSearchParams('action=nudge&from=2026-12-01&to=2026-12-01&action=export'));
    expect(auditParams(f)).toEqual({ action: 'nudge', from: '2026-12-01', to: '2026-12-01' });
    expect(auditFilterOf(f, 'Europe/Amsterdam')).toEqual({ action: 'nudge', from: new Date('2026-11-30T23:00:00Z'), to: new Date('2026-12-01T23:00:00Z') });
    expect(parseAuditQuery({ action: 'drop_tables' }).action).toBeUndefined();
    expect(deliveryFilterOf(parseDeliveriesQuery({}), 'UTC')).toEqual({ q: undefined, status: undefined, channel: undefined, from: undefined, to: undefined });
  });
});
