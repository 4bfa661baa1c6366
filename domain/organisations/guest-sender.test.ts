import { describe, expect, it } from 'vitest';
import { bookingRoles } from '@/domain/vocabulary';
import {
  auditsGuestMessage,
  decideSender,
  guestMessageEntry,
  hostActorOf,
  describeLimit,
  describeSender,
  describeSenderAtBooking,
  emailDomain,
  guestLimits,
  normaliseDomain,
  parseDomainList,
  type GuestLimit,
  type SenderInput,
  type SenderReason,
} from './guest-sender';

const base: SenderInput = {
  role: 'external',
  guestTenantId: 'guest-tenant',
  partnership: { limit: 'anyone', domains: [] },
  channel: 'email',
  address: 'gus@partner.example',
  knownToGuest: false,
};
const decide = (over: Partial<SenderInput>) => decideSender({ ...base, ...over });

describe('decideSender', () => {
  it.each(bookingRoles.filter((r) => r !== 'external'))('a %s is always written to in the host’s own name, whatever the partnership', (role) => {
    for (const limit of guestLimits) {
      expect(decide({ role, partnership: { limit, domains: ['partner.example'] }, knownToGuest: true })).toEqual({ sender: 'host', reason: 'not_external' });
    }
  });

  it('an external guest without a guest organisation, or without a partnership, gets the host’s own name', () => {
    expect(decide({ guestTenantId: null })).toEqual({ sender: 'host', reason: 'no_guest_tenant' });
    expect(decide({ partnership: null, knownToGuest: true })).toEqual({ sender: 'host', reason: 'no_partnership' });
  });

  // Every limit × (known contact or not) × (domain listed or not): the whole table of the module doc.
  const cases: [GuestLimit, boolean, boolean, 'guest' | 'host', SenderReason][] = [
    ['anyone', false, false, 'guest', 'limit_anyone'],
    ['anyone', true, true, 'guest', 'limit_anyone'],
    ['contacts', true, false, 'guest', 'known_contact'],
    ['contacts', true, true, 'guest', 'known_contact'],
    ['contacts', false, true, 'host', 'not_a_contact'],
    ['contacts', false, false, 'host', 'not_a_contact'],
    ['domains', false, true, 'guest', 'domain_listed'],
    ['domains', true, true, 'guest', 'domain_listed'],
    ['domains', true, false, 'host', 'domain_not_listed'],
    ['domains', false, false, 'host', 'domain_not_listed'],
    ['none', true, true, 'host', 'limit_none'],
    ['none', false, false, 'host', 'limit_none'],
  ];
  it.each(cases)('limit %s, known contact %s, domain listed %s → %s (%s)', (limit, known, listed, sender, reason) => {
    const d = decide({ partnership: { limit, domains: listed ? ['partner.example'] : ['elsewhere.example'] }, knownToGuest: known });
    expect(d).toEqual({ sender, reason });
  });

  it('domains match case-insensitively and exactly: a subdomain or a look-alike is not listed', () => {
    const p = { limit: 'domains' as const, domains: ['partner.example'] };
    expect(decide({ partnership: p, address: 'Gus@PARTNER.Example' }).sender).toBe('guest');
    expect(decide({ partnership: p, address: 'gus@partner.example.' }).sender).toBe('guest');
    expect(decide({ partnership: p, address: 'gus@eu.partner.example' }).sender).toBe('host');
    expect(decide({ partnership: p, address: 'gus@evilpartner.example' }).sender).toBe('host');
    expect(decide({ partnership: p, address: 'gus@partner.example.evil.test' }).sender).toBe('host');
  });

  it('the domain is the part after the LAST @ (a quoted local part cannot smuggle a listed domain)', () => {
    const p = { limit: 'domains' as const, domains: ['partner.example'] };
    expect(decide({ partnership: p, address: '"x@partner.example"@evil.test' }).sender).toBe('host');
  });

  it('an internationalised domain matches its punycode form, in either direction', () => {
    expect(decide({ partnership: { limit: 'domains', domains: ['bücher.example'] }, address: 'a@xn--bcher-kva.example' }).sender).toBe('guest');
    expect(decide({ partnership: { limit: 'domains', domains: ['xn--bcher-kva.example'] }, address: 'a@BÜCHER.example' }).sender).toBe('guest');
  });

  it('no address, or an address without a domain, is never in the guest’s name under contacts or domains', () => {
    for (const email of [null, '', 'no-at-sign', 'trailing@']) {
      expect(decide({ address: email, partnership: { limit: 'domains', domains: ['partner.example'] } }).sender).toBe('host');
      expect(decide({ address: email, partnership: { limit: 'contacts', domains: [] }, knownToGuest: true }).sender).toBe('host');
    }
  });

  it('an empty domain list allows nobody; an unknown stored limit is treated as none', () => {
    expect(decide({ partnership: { limit: 'domains', domains: [] } })).toEqual({ sender: 'host', reason: 'domain_not_listed' });
    expect(decide({ partnership: { limit: 'later' as GuestLimit, domains: [] }, knownToGuest: true })).toEqual({ sender: 'host', reason: 'limit_none' });
  });
});

describe('decideSender per channel (review of issue #12: an SMS goes to a number, a webhook to an endpoint)', () => {
  // Every limit × channel × (the address is one of the partner's contacts or not). The domain is listed in every
  // case, so a `domains` row shows that a listed EMAIL domain does not carry over to the number or the webhook.
  const p = (limit: GuestLimit) => ({ limit, domains: ['partner.example'] });
  const table: [GuestLimit, 'email' | 'sms' | 'webhook', boolean, 'guest' | 'host', SenderReason][] = [
    ['anyone', 'email', false, 'guest', 'limit_anyone'],
    ['anyone', 'sms', false, 'guest', 'limit_anyone'],
    ['anyone', 'webhook', false, 'guest', 'limit_anyone'],
    ['contacts', 'email', true, 'guest', 'known_contact'],
    ['contacts', 'email', false, 'host', 'not_a_contact'],
    ['contacts', 'sms', true, 'guest', 'known_contact'],
    ['contacts', 'sms', false, 'host', 'not_a_contact'],
    ['contacts', 'webhook', true, 'host', 'webhook_limited'],
    ['contacts', 'webhook', false, 'host', 'webhook_limited'],
    ['domains', 'email', false, 'guest', 'domain_listed'],
    ['domains', 'sms', true, 'host', 'number_has_no_domain'],
    ['domains', 'sms', false, 'host', 'number_has_no_domain'],
    ['domains', 'webhook', true, 'host', 'webhook_limited'],
    ['none', 'email', true, 'host', 'limit_none'],
    ['none', 'sms', true, 'host', 'limit_none'],
    ['none', 'webhook', true, 'host', 'limit_none'],
  ];
  const addressOn = { email: 'gus@partner.example', sms: '+31612345678', webhook: 'https://hooks.partner.example/in' };
  it.each(table)('limit %s, channel %s, known contact %s → %s (%s)', (limit, channel, known, sender, reason) => {
    expect(decide({ partnership: p(limit), channel, address: addressOn[channel], knownToGuest: known })).toEqual({ sender, reason });
  });

  it('an SMS is judged by its number, never by an email address: a listed email domain as the "address" of an SMS is still the host’s name', () => {
    expect(decide({ partnership: p('domains'), channel: 'sms', address: 'gus@partner.example', knownToGuest: true })).toEqual({ sender: 'host', reason: 'number_has_no_domain' });
    // Known under `contacts` only with a number to go to.
    for (const address of [null, '', '  ']) expect(decide({ partnership: p('contacts'), channel: 'sms', address, knownToGuest: true }).sender).toBe('host');
  });

  it('the new reasons in words', () => {
    expect(describeSender({ sender: 'host', reason: 'number_has_no_domain' }, 'Partner Collective')).toBe(
      'in your own name: Partner Collective lets you write in its name only to addresses at the domains it listed, and a mobile number has no domain',
    );
    expect(describeSender({ sender: 'host', reason: 'webhook_limited' }, 'Partner Collective')).toBe(
      'in your own name: Partner Collective lets webhooks go out in its name only when it lets you write to anyone in its name',
    );
  });
});

describe('domains', () => {
  it.each([
    ['Partner.Example', 'partner.example'],
    [' partner.example. ', 'partner.example'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['a-b.c-d.example', 'a-b.c-d.example'],
  ])('normaliseDomain(%j) = %j', (input, out) => expect(normaliseDomain(input)).toBe(out));

  it.each(['', 'localhost', 'partner', '*.partner.example', 'a@partner.example', 'partner.example:25', 'partner.example/x', '10.0.0.1', '-bad.example', 'bad-.example', 'a..b', 'a b.example', `${'x'.repeat(64)}.example`])(
    'normaliseDomain(%j) = null',
    (input) => expect(normaliseDomain(input)).toBeNull(),
  );

  it('emailDomain', () => {
    expect(emailDomain('Ada@Example.ORG')).toBe('example.org');
    expect(emailDomain(null)).toBeNull();
    expect(emailDomain('@example.org')).toBeNull();
  });

  it('parseDomainList: commas, spaces, new lines and a leading @; de-duplicated in order; the first bad entry named', () => {
    expect(parseDomainList('partner.example, @Eu.Partner.example\nPARTNER.example  other.example')).toEqual({ ok: true, domains: ['partner.example', 'eu.partner.example', 'other.example'] });
    expect(parseDomainList(['a.example', 'b.example c.example'])).toEqual({ ok: true, domains: ['a.example', 'b.example', 'c.example'] });
    expect(parseDomainList('')).toEqual({ ok: true, domains: [] });
    expect(parseDomainList('ok.example, *.wild.example, x')).toEqual({ ok: false, invalid: '*.wild.example' });
  });
});

describe('wording', () => {
  it('describeSenderAtBooking names the contacts rule, never whether this address is a contact', () => {
    const g = 'Partner Collective';
    const known = describeSenderAtBooking({ sender: 'guest', reason: 'known_contact' }, g);
    expect(describeSenderAtBooking({ sender: 'host', reason: 'not_a_contact' }, g)).toBe(known);
    expect(known).toBe('in Partner Collective’s name if Partner Collective has this address among its own contacts, otherwise in your own name (Partner Collective lets you write in its name only to its own contacts; each message checks again)');
    expect(describeSenderAtBooking({ sender: 'guest', reason: 'limit_anyone' }, g)).toBe('in Partner Collective’s name');
    expect(describeSenderAtBooking({ sender: 'host', reason: 'domain_not_listed' }, g)).toBe(describeSender({ sender: 'host', reason: 'domain_not_listed' }, g));
  });

  it('describeSender names the organisation and, in the host’s own name, why', () => {
    const g = 'Partner Collective';
    expect(describeSender({ sender: 'guest', reason: 'limit_anyone' }, g)).toBe('in Partner Collective’s name');
    expect(describeSender({ sender: 'guest', reason: 'known_contact' }, g)).toBe('in Partner Collective’s name');
    expect(describeSender({ sender: 'host', reason: 'not_external' }, g)).toBe('in your own name');
    expect(describeSender({ sender: 'host', reason: 'not_a_contact' }, g)).toBe('in your own name: Partner Collective lets you write in its name only to its own contacts');
    expect(describeSender({ sender: 'host', reason: 'domain_not_listed' }, g)).toContain('domains it listed');
    expect(describeSender({ sender: 'host', reason: 'limit_none' }, g)).toBe('in your own name: Partner Collective does not let you write in its name');
    expect(describeSender({ sender: 'host', reason: 'no_partnership' }, g)).toContain('no longer lets you book');
  });

  it('describeLimit', () => {
    expect(describeLimit({ limit: 'anyone', domains: [] })).toBe('anyone they book as our guest');
    expect(describeLimit({ limit: 'contacts', domains: [] })).toBe('only people in our contacts');
    expect(describeLimit({ limit: 'domains', domains: ['a.example', 'b.example'] })).toBe('only addresses at a.example, b.example');
    expect(describeLimit({ limit: 'domains', domains: [] })).toBe('nobody (no domain listed)');
    expect(describeLimit({ limit: 'none', domains: [] })).toBe('nobody: they write in their own name');
    expect(describeLimit({ limit: 'anyone', domains: [] }, 'host')).toBe('anyone you book as their guest');
    expect(describeLimit({ limit: 'contacts', domains: [] }, 'host')).toBe('only people in their contacts');
    expect(describeLimit({ limit: 'domains', domains: ['a.example'] }, 'host')).toBe('only addresses at a.example');
    expect(describeLimit({ limit: 'none', domains: [] }, 'host')).toBe('nobody: you write in your own name');
  });
});

describe('the guest organisation’s audit entry', () => {
  it('hostActorOf: the nudger, the change’s actor, or the person who booked the guest; else system', () => {
    const m = { requestedBy: 'sam@host.test', changeActor: 'ada@host.test', bookedBy: 'hana@host.test' };
    expect(hostActorOf({ kind: 'nudge', ...m })).toBe('sam@host.test');
    expect(hostActorOf({ kind: 'notification', ...m })).toBe('ada@host.test');
    expect(hostActorOf({ kind: 'rule', ...m })).toBe('hana@host.test');
    expect(hostActorOf({ kind: 'rule', ...m, bookedBy: null })).toBe('system');
    expect(hostActorOf({ kind: 'nudge', ...m, requestedBy: ' ' })).toBe('system');
  });

  it('auditsGuestMessage: once per delivery in the guest’s name — its first attempt, or the first after the sender became the guest', () => {
    for (const firstAttempt of [true, false]) for (const senderChanged of [true, false]) {
      expect(auditsGuestMessage({ inGuestName: false, firstAttempt, senderChanged })).toBe(false);
      expect(auditsGuestMessage({ inGuestName: true, firstAttempt, senderChanged })).toBe(firstAttempt || senderChanged);
    }
  });

  it('guestMessageEntry: actor names the host actor and the host; details name the event (no id), recipient, message and key', () => {
    const e = guestMessageEntry({ hostName: 'Host Studio', hostActor: 'sam@host.test', title: 'Manual reminder', eventTitle: 'Joint session', address: 'gus@x.test', channel: 'email', subject: 'Reminder: Joint session', messageKey: 'nudge:k' });
    expect(e).toEqual({
      actor: 'sam@host.test (Host Studio)',
      details: { title: 'Joint session', address: 'gus@x.test', sentBy: 'Host Studio', message: 'Manual reminder', channel: 'email', subject: 'Reminder: Joint session', messageKey: 'nudge:k' },
    });
    expect(Object.keys(e.details)).not.toContain('eventId');
    expect(guestMessageEntry({ hostName: 'H', hostActor: 'system', title: 'T', eventTitle: 'E', address: '+31612345678', channel: 'sms', subject: null, messageKey: 'k' }).details).not.toHaveProperty('subject');
  });
});
