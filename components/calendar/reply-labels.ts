/** Staff wording and badge tone of a calendar reply's outcome (server/calendar/replies.ts `ReplyResult`). */
export const replyOutcomeLabels: Record<string, string> = {
  applied: 'applied',
  noted: 'noted',
  unmatched: 'not counted — unmatched',
  ignored: 'not counted',
};

/** Badge tones (components/ui/StatusBadge.tsx `BadgeTone`) per outcome. */
export const replyOutcomeTones: Record<string, string> = {
  applied: 'ok',
  noted: 'progress',
  unmatched: 'unknown',
  ignored: 'muted',
};
