/** What each template is for, in staff words (rule editor, lists and the templates page). */
import type { TemplateId } from '@/domain/vocabulary';

export const templateTitles: Record<TemplateId, string> = {
  'attendee-reminder': 'Attendee reminder',
  'room-opening': 'Room opening (attendees and external guests)',
  'host-reminder': 'Host reminder',
  'booking-confirmed': 'Booking confirmed (notification)',
  'booking-cancelled': 'Booking cancelled (notification)',
  'event-rescheduled': 'Event rescheduled (notification)',
  'event-cancelled': 'Event cancelled (notification)',
  'host-added': 'Added as host (notification)',
  'event-details-changed': 'Event details changed (notification)',
  'confirmation-request': 'Confirmation request (asks “Will you be there?”)',
  'booking-declined': 'Participant cannot come (notification)',
};

/**
 * A template's name for the notification settings page and its sentences ("Booking confirmed"): its title
 * without the "(notification)" marker, which is plain there; an unknown id is shown as it is.
 */
export function notificationTemplateLabel(id: string): string {
  const title = (templateTitles as Record<string, string | undefined>)[id];
  return title ? title.replace(/ \(notification\)$/, '') : id;
}
