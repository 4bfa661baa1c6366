/** Staff words of the text editor: the languages Punctual ships text for, and the fields of a text. */
import type { StaffTextField } from '@/domain/messages/staff-text';

/** The English name of each built-in language (emails/messages/). */
export const languageNames: Record<string, string> = {
  en: 'English',
  nl: 'Dutch',
  de: 'German',
  fr: 'French',
  es: 'Spanish',
  it: 'Italian',
  pt: 'Portuguese',
  he: 'Hebrew',
};

/** "German (de)"; an unknown tag as it is. */
export function languageLabel(tag: string): string {
  const name = languageNames[tag];
  return name ? `${name} (${tag})` : tag;
}

/** The label of each field of a text (the form and its error lists). */
export const fieldLabels: Record<StaffTextField, string> = { subject: 'Subject', body: 'Body', sms: 'SMS text' };

/** Text direction of a built-in language (Hebrew is written right to left). */
export function languageDir(tag: string): 'ltr' | 'rtl' {
  return tag === 'he' ? 'rtl' : 'ltr';
}
