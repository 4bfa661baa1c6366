/** Words and badge tones for suppression reasons, shared by the add form (client) and the list (server). */
import type { SuppressionReason } from '@/domain/vocabulary';
import type { BadgeTone } from '@/components/ui/StatusBadge';

/** The reason as staff read it in the form's select and the list. */
export const suppressionReasonLabels: Record<SuppressionReason, string> = {
  bounced: 'Bounced',
  complained: 'Complained (marked as spam)',
  unsubscribed: 'Unsubscribed',
  manual: 'Manual (asked not to be mailed)',
  invalid_number: 'Invalid phone number',
  hard_bounce: 'Hard bounce (reported)',
  soft_bounces: '3 soft bounces in 7 days',
};

/** Badge colour per reason: provider signals red, a person's wish purple (the suppressed colour). */
export const suppressionReasonTones: Record<SuppressionReason, BadgeTone> = {
  bounced: 'bad',
  complained: 'bad',
  unsubscribed: 'suppressed',
  manual: 'suppressed',
  invalid_number: 'bad',
  hard_bounce: 'bad',
  soft_bounces: 'bad',
};
