import { channelLabels } from '@/domain/sending/message-labels';
import type { Channel } from '@/domain/vocabulary';

/**
 * The channel a message goes out on, as a small outlined label ("Email", "SMS", "Webhook") — outlined, not
 * filled, so it never reads as a status. `data-channel` lets tests and styles target it.
 */
export function ChannelBadge({ channel }: { channel: Channel }) {
  return (
    <span className={`channel-badge channel-${channel}`} data-channel={channel}>
      {channelLabels[channel]}
    </span>
  );
}
