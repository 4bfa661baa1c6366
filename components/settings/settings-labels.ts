/**
 * Words of the organisation settings page (issue #13), shared by the server-rendered page and the client form (a
 * plain module: a server component cannot read constants exported by a 'use client' module).
 */
import type { EmailProvider } from '@/domain/vocabulary';

/** The email providers in staff words. */
export const providerLabels: Record<EmailProvider, string> = { smtp: 'SMTP server', http_api: 'HTTP email API' };

/** The labels of the settings fields (error lines, the conflict panel, the read-only view). */
export const settingsLabels = {
  name: 'Organisation name',
  timeZone: 'Default time zone',
  senderName: 'Sender name',
  senderEmail: 'Sender address',
  replyTo: 'Reply-to address',
  locale: 'Default language',
  emailProvider: 'Email provider',
  smsSegmentLimit: 'SMS segments per text, at most',
  unconfirmedAlertThreshold: 'Warn when more people have not confirmed than',
  version: 'Version',
} as const;
