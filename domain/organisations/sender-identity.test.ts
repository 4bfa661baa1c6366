import { describe, expect, it } from 'vitest';
import {
  describeSender,
  effectiveSender,
  isAllowlisted,
  normaliseAddress,
  parseSenderDomains,
  senderAddressTaken,
  senderProof,
  type SenderFields,
  type SenderIdentityConfig,
} from './sender-identity';

const cfg: SenderIdentityConfig = { defaultSender: 'noreply@punctual.local', allowedDomains: ['punctual.local'] };
const org = (over: Partial<SenderFields> = {}): SenderFields => ({ name: 'Demo Studio', senderName: null, senderEmail: 'news@unverified.example', replyTo: null, senderVerifiedEmail: null, ...over });

describe('normaliseAddress', () => {
  it.each([
    ['HELLO@partner.punctual.local', 'hello@partner.punctual.local'],
    ['  Hello@Partner.Punctual.Local ', 'hello@partner.punctual.local'],
    ['a@b.test', 'a@b.test'],
  ])('%j → %j', (a, want) => expect(normaliseAddress(a)).toBe(want));
});

describe('parseSenderDomains (PUNCTUAL_SENDER_DOMAINS)', () => {
  it.each([
    [undefined, { ok: true, domains: [] }],
    ['', { ok: true, domains: [] }],
    ['punctual.local', { ok: true, domains: ['punctual.local'] }],
    ['Example.COM, @mail.example.org *.b.test  example.com', { ok: true, domains: ['example.com', 'mail.example.org', 'b.test'] }],
    ['example.com, not a domain', { ok: false, invalid: 'not' }],
    ['localhost', { ok: false, invalid: 'localhost' }],
  ])('%j', (input, want) => expect(parseSenderDomains(input)).toEqual(want));
});

describe('isAllowlisted', () => {
  it.each([
    ['reminders@demo.punctual.local', ['punctual.local'], true],
    ['x@PUNCTUAL.LOCAL', ['punctual.local'], true],
    ['x@notpunctual.local', ['punctual.local'], false],
    ['x@punctual.local.evil.test', ['punctual.local'], false],
    ['x@unverified.example', ['punctual.local'], false],
    ['x@unverified.example', [], false],
    ['not-an-address', ['punctual.local'], false],
  ] as const)('%s under %j → %s', (a, list, want) => expect(isAllowlisted(a, list)).toBe(want));
});

describe('senderProof and effectiveSender', () => {
  const table: [string, Partial<SenderFields>, SenderIdentityConfig, { from: string; name: string; replyTo: string | null; proof: string }][] = [
    ['unverified, no reply-to: default sender, Reply-To the unproven address', {}, cfg, { from: 'noreply@punctual.local', name: 'Demo Studio', replyTo: 'news@unverified.example', proof: 'unverified' }],
    ['unverified with an explicit reply-to: that reply-to', { replyTo: 'desk@unverified.example' }, cfg, { from: 'noreply@punctual.local', name: 'Demo Studio', replyTo: 'desk@unverified.example', proof: 'unverified' }],
    ['unverified keeps the sender name', { senderName: 'Front Desk' }, cfg, { from: 'noreply@punctual.local', name: 'Front Desk', replyTo: 'news@unverified.example', proof: 'unverified' }],
    ['verified (link) for this address, any case', { senderEmail: 'News@Unverified.Example', senderVerifiedEmail: 'news@unverified.example' }, cfg, { from: 'News@Unverified.Example', name: 'Demo Studio', replyTo: null, proof: 'verified' }],
    ['a verification of ANOTHER address does not count', { senderVerifiedEmail: 'old@unverified.example' }, cfg, { from: 'noreply@punctual.local', name: 'Demo Studio', replyTo: 'news@unverified.example', proof: 'unverified' }],
    ['allowlisted domain (a subdomain)', { senderEmail: 'reminders@demo.punctual.local' }, cfg, { from: 'reminders@demo.punctual.local', name: 'Demo Studio', replyTo: null, proof: 'allowlist' }],
    ['allowlist emptied: the same address is unproven at the next send', { senderEmail: 'reminders@demo.punctual.local' }, { ...cfg, allowedDomains: [] }, { from: 'noreply@punctual.local', name: 'Demo Studio', replyTo: 'reminders@demo.punctual.local', proof: 'unverified' }],
    ['the default sender itself: proven, no Reply-To added', { senderEmail: 'NoReply@punctual.local' }, { ...cfg, allowedDomains: [] }, { from: 'NoReply@punctual.local', name: 'Demo Studio', replyTo: null, proof: 'default' }],
    ['verified keeps its reply-to', { senderVerifiedEmail: 'news@unverified.example', replyTo: 'desk@x.test' }, cfg, { from: 'news@unverified.example', name: 'Demo Studio', replyTo: 'desk@x.test', proof: 'verified' }],
  ];
  it.each(table)('%s', (_, over, c, want) => {
    const e = effectiveSender(org(over), c);
    expect({ from: e.from.address, name: e.from.name, replyTo: e.replyTo, proof: e.proof }).toEqual(want);
    expect(e.proven).toBe(want.proof !== 'unverified');
    expect(senderProof(org(over), c)).toBe(want.proof);
  });

  it('a display name given by the caller wins (alerts)', () => {
    expect(effectiveSender(org(), cfg, { displayName: 'Demo Studio (Punctual alerts)' }).from).toEqual({ name: 'Demo Studio (Punctual alerts)', address: 'noreply@punctual.local' });
  });
});

describe('senderAddressTaken', () => {
  const partner = { senderEmail: 'hello@partner.punctual.local', senderVerifiedEmail: 'hello@partner.punctual.local' };
  it.each([
    ['another organisation’s verified address, in another case', 'HELLO@partner.punctual.local', [partner], cfg, true],
    ['allowlisted and set by another (not link-verified)', 'hello@partner.punctual.local', [{ ...partner, senderVerifiedEmail: null }], cfg, true],
    ['held elsewhere but unproven: free to set (whoever verifies first wins)', 'news@unverified.example', [{ senderEmail: 'news@unverified.example', senderVerifiedEmail: null }], cfg, false],
    ['the default sender is anybody’s', 'noreply@punctual.local', [{ senderEmail: 'noreply@punctual.local', senderVerifiedEmail: 'noreply@punctual.local' }], cfg, false],
    ['nobody holds it', 'news@unverified.example', [partner], cfg, false],
    ['another holds a verification of an address it no longer uses', 'old@x.test', [{ senderEmail: 'new@x.test', senderVerifiedEmail: 'old@x.test' }], cfg, false],
    ['a subaddress of another’s address (RFC 5233)', 'hello+x@partner.punctual.local', [partner], cfg, true],
    ['another mailbox at a domain another has proven', 'billing@partner.punctual.local', [partner], cfg, true],
    ['another mailbox at a link-verified domain', 'sales@acme.example', [{ senderEmail: 'news@acme.example', senderVerifiedEmail: 'news@acme.example' }], cfg, true],
    ['another mailbox at the operator’s shared domain (an entry of the list): free', 'desk@punctual.local', [{ senderEmail: 'team@punctual.local', senderVerifiedEmail: null }], cfg, false],
    ['the same mailbox at the shared domain, by subaddress: taken', 'team+a@punctual.local', [{ senderEmail: 'team@punctual.local', senderVerifiedEmail: null }], cfg, true],
    ['another mailbox at a domain someone holds unproven: free', 'sales@unverified.example', [{ senderEmail: 'news@unverified.example', senderVerifiedEmail: null }], cfg, false],
    ['a domain held only by a user of the default sender: free', 'x@punctual.local', [{ senderEmail: 'noreply@punctual.local', senderVerifiedEmail: null }], cfg, false],
  ] as const)('%s', (_, address, others, c, want) => expect(senderAddressTaken(address, others, c)).toBe(want));
});

describe('describeSender', () => {
  it('says plainly where mail goes from and why', () => {
    expect(describeSender(org(), cfg)).toBe('news@unverified.example is not verified yet: mail goes out from noreply@punctual.local with Reply-To news@unverified.example.');
    expect(describeSender(org({ senderEmail: 'r@demo.punctual.local' }), cfg)).toBe('Mail goes out from r@demo.punctual.local (its domain is on this deployment’s list of sender domains).');
    expect(describeSender(org({ senderVerifiedEmail: 'news@unverified.example' }), cfg)).toBe('Mail goes out from news@unverified.example (verified).');
  });
});
