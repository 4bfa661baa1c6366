/**
 * The life of an organisation's own message text (issue #22 §2): a draft is saved (checked first,
 * domain/messages/staff-text.ts), then published as the next version; any published version can be published again
 * (roll back: a new version copying it); "reset to Punctual's text" is a version too, one without text. Pure.
 */

/** `draft` → `published`; `reset` is a version that says "the built-in text from now on". */
export const messageTextStatuses = ['draft', 'published', 'reset'] as const;
export type MessageTextStatus = (typeof messageTextStatuses)[number];

/** A version as far as choosing the effective text is concerned. */
export interface TextVersion {
  status: MessageTextStatus;
  version: number | null;
}

/**
 * Which version applies now: the highest-numbered version, when it is `published`; null (the built-in text) when
 * there is none or the highest is a `reset`. Drafts never apply.
 */
export function effectiveVersion<V extends TextVersion>(rows: readonly V[]): (V & { version: number }) | null {
  let top: (V & { version: number }) | null = null;
  for (const r of rows) {
    if (r.status === 'draft' || r.version === null) continue;
    if (!top || r.version > top.version) top = r as V & { version: number };
  }
  return top && top.status === 'published' ? top : null;
}

/** The number the next version gets: one above the highest so far (1 for the first). */
export function nextVersion(rows: readonly TextVersion[]): number {
  return rows.reduce((max, r) => (r.version !== null && r.version > max ? r.version : max), 0) + 1;
}
