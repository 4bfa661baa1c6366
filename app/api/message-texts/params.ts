/**
 * The request shape shared by the /api/message-texts routes: the path's kind and language plus the JSON body, with
 * the row version taken from `rowVersion`, else from `version` (what `If-Match` fills in, app/_http/session.ts).
 * The use-cases (server/messages/message-texts.ts) validate all of it with zod.
 */
export interface TextParams {
  kind: string;
  locale: string;
}

/** `{ ...body, kind, locale, rowVersion }` for a use-case. */
export function textEdit(params: TextParams, body: unknown): Record<string, unknown> {
  const b = (body ?? {}) as Record<string, unknown>;
  return { ...b, kind: params.kind, locale: params.locale, rowVersion: b.rowVersion ?? b.version };
}
