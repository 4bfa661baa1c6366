import { describe, expect, it } from 'vitest';
import { senderIdentityFromEnv } from '@/server/organisations/sender-config';

describe('PUNCTUAL_MAIL_FROM and PUNCTUAL_SENDER_DOMAINS', () => {
  it('defaults: reminders@punctual.local, no sender domains', () => {
    expect(senderIdentityFromEnv({})).toEqual({ defaultSender: 'reminders@punctual.local', allowedDomains: [] });
  });
  it('reads both, normalising the domains', () => {
    expect(senderIdentityFromEnv({ PUNCTUAL_MAIL_FROM: ' noreply@mail.example.org ', PUNCTUAL_SENDER_DOMAINS: 'Example.org, @punctual.local' })).toEqual({
      defaultSender: 'noreply@mail.example.org',
      allowedDomains: ['example.org', 'punctual.local'],
    });
  });
  it('a bad value is an error naming the variable', () => {
    expect(() => senderIdentityFromEnv({ PUNCTUAL_MAIL_FROM: 'Punctual <x@y.test>' })).toThrow(/^PUNCTUAL_MAIL_FROM: /);
    expect(() => senderIdentityFromEnv({ PUNCTUAL_SENDER_DOMAINS: 'example.org, not_a_domain' })).toThrow(/^PUNCTUAL_SENDER_DOMAINS: "not_a_domain" is not a domain name/);
  });
});
