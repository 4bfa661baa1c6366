/**
 * What a person does first about a dead letter whose cause will not go away by itself: a replay of a message the
 * provider refused for a permanent reason (DESIGN §3 "Outcome": a rejection owned by `configuration`, `template` or
 * `recipient`) fails the same way until that cause is fixed, so the Needs attention card offers the fix — a link to the
 * page where it is made — before "Replay". A dead letter owned by the provider (it gave up after its retries) has no
 * such step: replaying later is the fix. Pure.
 */
import type { Channel, RepairOwner } from '@/domain/vocabulary';

export interface RepairStep {
  /** What to fix, one sentence. */
  cause: string;
  /** The page where it is fixed. */
  href: string;
  /** The link's words. */
  label: string;
}

/**
 * The first step for a dead letter owned by `owner` on `channel` (`eventId`: the event of its booking, if any), or
 * null when replaying is the first step.
 */
export function repairStep(owner: RepairOwner | null | undefined, channel: Channel, eventId: string | null): RepairStep | null {
  switch (owner) {
    case 'configuration':
      if (channel === 'email') return { cause: 'The mail provider refused this sender or account for this address: check the sender address and the provider.', href: '/settings', label: 'Open the settings' };
      return {
        cause: channel === 'webhook' ? 'The webhook endpoint refused or moved: check its address and secret.' : 'The SMS provider refused the sender: check the SMS sender.',
        href: '/notifications',
        label: 'Open the notification settings',
      };
    case 'template':
      return { cause: 'The provider refused the message itself (its content or format): check the text of this kind of message.', href: '/templates', label: 'Open the templates' };
    case 'recipient':
      return eventId
        ? { cause: 'The provider refused this recipient: check the participant’s address or number.', href: `/events/${eventId}`, label: 'Open the participant’s event' }
        : null;
    default:
      return null;
  }
}
