import { splitInstants } from '@/domain/staff-time';
import { ZonedTime } from './ZonedTime';

/**
 * A stored free text (a status reason, an audit detail, a provider's words) with every ISO-8601 instant in it
 * shown as wall-clock time in `zone` — the event's zone where the text is about an event, else the tenant's —
 * with the viewer's own zone and UTC on hover (components/ui/ZonedTime.tsx), never as a raw
 * "2026-11-29T16:52:00.000Z" (issue #12). Text without instants renders as it is. Usable from server and client
 * components (no hooks of its own).
 */
export function TimesInText({ text, zone }: { text: string; zone: string }) {
  const pieces = splitInstants(text);
  if (pieces.every((p) => p.kind === 'text')) return <>{text}</>;
  return (
    <>
      {pieces.map((p, i) => (p.kind === 'text' ? <span key={i}>{p.text}</span> : <ZonedTime key={i} instant={p.iso} zone={zone} />))}
    </>
  );
}
