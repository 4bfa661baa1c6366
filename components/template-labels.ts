/** What each email template is for, in staff words (rule editor and lists). */
import type { TemplateId } from '../domain/vocabulary';

export const templateTitles: Record<TemplateId, string> = {
  'attendee-reminder': 'Attendee reminder',
  'room-opening': 'Room opening (attendees and external guests)',
  'host-reminder': 'Host reminder',
};
