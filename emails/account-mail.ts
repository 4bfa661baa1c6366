/**
 * The words of Punctual's account mail — the password reset link, the staff invitation (and its twin for an address
 * that already has an account elsewhere), and the link that proves a sender address — in the organisation's default
 * language (`tenants.locale`; staff have no language of their own, and the staff UI is English for now): the
 * catalog's `account` messages (emails/messages/*.ts, checked like every other message by
 * test/unit/message-catalog.test.ts), through the same locale fallback as participant mail (a language without text
 * → its base language → English).
 *
 * Each mail is plain text (the worker adds a simple HTML part with the link as a button:
 * server/accounts/account-mail.ts): a greeting, the intro sentence, the link on its own line, when the link stops
 * working (date, time and zone in the organisation's zone, written the language's way), and what to do when it was
 * not you. Pure.
 */
import { DateTime } from 'luxon';
import type { StaffRole } from '@/domain/vocabulary';
import { formatStaffTime } from '@/domain/staff-time';
import { messageContext, type MessageContext, type MessageValue } from './messages';

/** Subject and plain text of one account mail. */
export interface AccountMailText {
  subject: string;
  text: string;
}

/**
 * When a link stops working, in `zone` (IANA): English as the staff pages write times ("Tue 1 Jun 2027, 10:00 IST",
 * domain/staff-time.ts), every other language by its own CLDR pattern with the zone's short name ("Di., 1. Juni
 * 2027, 10:00 GMT+1"). An invalid instant or zone falls back to UTC rather than throwing: the mail still goes out.
 */
export function linkExpiryText(ctx: Pick<MessageContext, 'language' | 'lang'>, at: Date, zone: string): string {
  if (ctx.language === 'en') return formatStaffTime(at, zone);
  const dt = DateTime.fromJSDate(at, { zone });
  const shown = dt.isValid ? dt : DateTime.fromJSDate(at, { zone: 'UTC' });
  return shown.setLocale(ctx.lang).toLocaleString({ weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
}

function greeting(ctx: MessageContext, name: string): string {
  return name.trim() ? ctx.plain(ctx.text.common.greeting, { name: { typed: name.trim() } }) : ctx.plain(ctx.text.common.greetingNoName);
}

function paragraphs(...lines: string[]): string {
  return lines.join('\n\n');
}

/** Who the link is for and where it leads; `expiresAt` is a UTC instant, `zone` the organisation's IANA zone. */
interface LinkMail {
  /** The organisation's default language (BCP 47, `tenants.locale`). */
  locale: string;
  personName: string;
  orgName: string;
  expiresAt: Date;
  zone: string;
}

/** The password reset email: who asked for what, the link, until when it works, and what to do when it was not you. */
export function passwordResetEmail(i: LinkMail & { url: string }): AccountMailText {
  const ctx = messageContext(i.locale);
  const t = ctx.text.account;
  const values: Record<string, MessageValue> = { tenantName: { typed: i.orgName }, until: linkExpiryText(ctx, i.expiresAt, i.zone) };
  return {
    subject: ctx.plain(t.passwordResetSubject, values),
    text: paragraphs(greeting(ctx, i.personName), ctx.plain(t.passwordResetIntro, values), i.url, ctx.plain(t.passwordResetValidity, values), ctx.plain(t.passwordResetIgnore)),
  };
}

/** The invitation for an address with no account: who invited, to which organisation with which role, the link. */
export function invitationEmail(i: LinkMail & { invitedBy: string; role: StaffRole; url: string }): AccountMailText {
  const ctx = messageContext(i.locale);
  const t = ctx.text.account;
  const values: Record<string, MessageValue> = {
    tenantName: { typed: i.orgName },
    invitedBy: { typed: i.invitedBy },
    role: i.role,
    until: linkExpiryText(ctx, i.expiresAt, i.zone),
  };
  return {
    subject: ctx.plain(t.invitationSubject, values),
    text: paragraphs(greeting(ctx, i.personName), ctx.plain(t.invitationIntro, values), i.url, ctx.plain(t.invitationValidity, values), ctx.plain(t.invitationIgnore)),
  };
}

/**
 * The email to an invited address that already has a Punctual account with another organisation: only the person
 * learns it (the inviting organisation sees the invitation pending until it expires, as if ignored). No link.
 */
export function alreadyRegisteredEmail(i: LinkMail & { invitedBy: string }): AccountMailText {
  const ctx = messageContext(i.locale);
  const t = ctx.text.account;
  const values: Record<string, MessageValue> = { tenantName: { typed: i.orgName }, invitedBy: { typed: i.invitedBy }, until: linkExpiryText(ctx, i.expiresAt, i.zone) };
  return {
    subject: ctx.plain(t.invitationSubject, values),
    text: paragraphs(greeting(ctx, i.personName), ctx.plain(t.registeredIntro, values), ctx.plain(t.registeredAdvice, values), ctx.plain(t.registeredIgnore)),
  };
}

/**
 * The mail that proves a sender address (sent to that address, which may be nobody's name): what confirming does,
 * who may confirm, the link, until when, and what happens if nobody does.
 */
export function senderVerificationEmail(i: Omit<LinkMail, 'personName'> & { address: string; url: string }): AccountMailText {
  const ctx = messageContext(i.locale);
  const t = ctx.text.account;
  const values: Record<string, MessageValue> = { tenantName: { typed: i.orgName }, address: i.address, until: linkExpiryText(ctx, i.expiresAt, i.zone) };
  return {
    subject: ctx.plain(t.senderSubject, values),
    text: paragraphs(ctx.plain(t.senderHeading, values), ctx.plain(t.senderIntro, values), i.url, ctx.plain(t.senderValidity, values), ctx.plain(t.senderIgnore, values)),
  };
}
