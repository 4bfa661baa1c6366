import { channelLabels } from '@/domain/sending/message-labels';
import { channels, type Channel } from '@/domain/vocabulary';

/**
 * The "Channel" select of a GET filter form (reminders, deliveries, attention): `name="channel"`, "any" (empty
 * value) first, then every channel by its label. `value` is the channel the page is filtered on, if any.
 */
export function ChannelFilter({ value }: { value: Channel | undefined }) {
  return (
    <label>
      Channel
      <select name="channel" defaultValue={value ?? ''}>
        <option value="">any</option>
        {channels.map((c) => (
          <option key={c} value={c}>
            {channelLabels[c]}
          </option>
        ))}
      </select>
    </label>
  );
}
