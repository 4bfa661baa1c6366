import { describeSmsSegments } from '@/domain/sending/message-labels';
import { countSmsSegments, gsm7Septets } from '@/domain/sending/sms-segments';

/**
 * The SMS segment line under an SMS text: "2 segments · GSM-7 · 170 characters", "1 segment · UCS-2 · 64 characters"
 * — how many message parts the text costs and in which encoding (domain/sending/sms-segments.ts countSmsSegments;
 * wording domain/sending/message-labels.ts describeSmsSegments). A text that needs UCS-2 says which character forced
 * it, since one character switches the whole message. No hooks: used by server and client components alike.
 */
export function SmsSegmentCount({ text }: { text: string }) {
  const count = countSmsSegments(text);
  const forcing = count.encoding === 'UCS-2' ? [...text].find((ch) => gsm7Septets(ch) === null) : undefined;
  return (
    <p className="muted small sms-segments" data-testid="sms-segments" data-segments={count.segments} data-encoding={count.encoding}>
      {describeSmsSegments(text, count)}
      {forcing ? ` — UCS-2 because of “${forcing}” (U+${forcing.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})` : ''}
    </p>
  );
}
