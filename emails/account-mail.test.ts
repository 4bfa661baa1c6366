/**
 * Account mail in the organisation's language (emails/account-mail.ts): the English words staff have always
 * received, and in every other shipped language a mail with no English sentence left in it, the link once, and the
 * expiry written the language's way in the organisation's zone.
 */
import { describe, expect, it } from 'vitest';
import { catalogLocales } from '@/emails/messages';
import { formatStaffTime } from '@/domain/staff-time';
import { alreadyRegisteredEmail, invitationEmail, passwordResetEmail, senderVerificationEmail, type AccountMailText } from './account-mail';

const expiresAt = new Date('2027-06-01T09:00:00Z');
const url = 'https://x.example/set-password?token=t';
const base = { personName: 'Olga', orgName: 'Acme Events', expiresAt, zone: 'Europe/Dublin' };

const mails = (locale: string): Record<string, AccountMailText> => ({
  reset: passwordResetEmail({ ...base, locale, url }),
  invitation: invitationEmail({ ...base, locale, invitedBy: 'Ada Admin', role: 'staff', url }),
  registered: alreadyRegisteredEmail({ ...base, locale, invitedBy: 'Ada Admin' }),
  sender: senderVerificationEmail({ locale, orgName: 'Acme Events', address: 'hello@acme.example', url, expiresAt, zone: 'Europe/Dublin' }),
});

/** The sentences of a mail (split at line breaks and sentence ends), without the link. */
function sentences(m: AccountMailText): string[] {
  return [m.subject, ...m.text.split(/\n+|(?<=[.:!?])\s+/)].map((s) => s.trim()).filter((s) => s.length > 12 && !s.startsWith('http'));
}

describe('English (the words staff have always received)', () => {
  it('the password reset carries the link once, the organisation and the expiry in its zone', () => {
    const m = passwordResetEmail({ ...base, locale: 'en', url });
    expect(m.subject).toBe('Reset your Punctual password (Acme Events)');
    expect(m.text.startsWith('Hello Olga,\n\nSomeone \u2014 probably you \u2014 asked to reset the password of your Punctual account at Acme Events.')).toBe(true);
    expect(m.text.split(url)).toHaveLength(2);
    expect(m.text).toContain(`until ${formatStaffTime('2027-06-01T09:00:00Z', 'Europe/Dublin')}.`);
    expect(m.text).toContain('until Tue 1 Jun 2027, 10:00 ');
    expect(m.text).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
  });
  it('the person with no account gets the link; the person with one elsewhere is told, without a link', () => {
    const { invitation, registered } = mails('en');
    expect(invitation.text).toContain(url);
    expect(invitation.text).toContain('Ada Admin invited you to join Acme Events on Punctual as staff.');
    expect(invitationEmail({ ...base, locale: 'en', invitedBy: 'Ada', role: 'admin', url }).text).toContain('as an admin.');
    expect(invitationEmail({ ...base, locale: 'en', invitedBy: 'Ada', role: 'viewer', url }).text).toContain('as a viewer.');
    expect(registered.subject).toBe(invitation.subject);
    expect(registered.text).toContain('already has a Punctual account with another organisation');
    expect(registered.text).toContain('invite another address');
    expect(registered.text).not.toMatch(/https?:/);
  });
  it('the sender verification names the address, who may confirm and until when; no greeting (the address may be nobody’s)', () => {
    const { sender } = mails('en');
    expect(sender.subject).toBe('Confirm hello@acme.example as the sender address of Acme Events');
    expect(sender.text.startsWith('Confirm that Acme Events may send its reminders from hello@acme.example\n\n')).toBe(true);
    expect(sender.text).toContain('until Tue 1 Jun 2027, 10:00 ');
  });
});

describe('every other shipped language', () => {
  const english = Object.values(mails('en')).flatMap(sentences);
  it.each(catalogLocales.filter((l) => l !== 'en'))('%s: no English sentence, the link once, names kept, the expiry in the language', (locale) => {
    for (const [kind, m] of Object.entries(mails(locale))) {
      for (const s of sentences(m)) expect(english, `${locale} ${kind}: “${s}”`).not.toContain(s);
      if (kind !== 'registered') expect(m.text.split(url), `${locale} ${kind}`).toHaveLength(2);
      expect(m.text).not.toMatch(/undefined|[{}]|\d{4}-\d{2}-\d{2}T/);
      expect(m.text).toContain('2027');
      // English weekday and month words stay out of the date.
      expect(m.text, `${locale} ${kind}`).not.toMatch(/\b(Tue|Jun)\b/);
    }
    expect(mails(locale).invitation.text).toContain('Ada Admin');
  });
  it('German uses “Sie” and names the role without a gendered noun', () => {
    const m = invitationEmail({ ...base, locale: 'de', invitedBy: 'Ada Admin', role: 'admin', url });
    expect(m.text).toContain('Ada Admin hat Sie eingeladen, Acme Events auf Punctual mit Administratorrechten beizutreten.');
    expect(passwordResetEmail({ ...base, locale: 'de', url }).text).toMatch(/bis Di\.?, 1\. Juni? 2027, 10:00/);
  });
  it('a regional tag uses its base language; a language without text falls back to English', () => {
    expect(passwordResetEmail({ ...base, locale: 'nl-BE', url }).subject).toBe('Stel een nieuw Punctual-wachtwoord in (Acme Events)');
    expect(passwordResetEmail({ ...base, locale: 'xx', url }).subject).toBe('Reset your Punctual password (Acme Events)');
  });
  it('Hebrew isolates the typed names (first-strong isolates) so a Latin name does not reorder the sentence', () => {
    const m = invitationEmail({ ...base, locale: 'he', invitedBy: 'Ada Admin', role: 'staff', url });
    expect(m.text).toContain('\u2068Ada Admin\u2069');
    expect(m.text).toContain('\u2068Acme Events\u2069');
  });
});
