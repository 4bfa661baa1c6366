/**
 * The editor starts an organisation's first text from Punctual's words (server/messages/text-overview.ts builtInDraft):
 * for every message kind in every built-in language that draft passes the same check a save makes, so an admin who
 * changes one word and saves is not refused for words they did not write. No database needed.
 */
import { describe, expect, it } from 'vitest';
import { checkStaffText } from '@/domain/messages/staff-text';
import { templateIds } from '@/domain/vocabulary';
import { catalogLocales } from '@/emails/messages';
import { DEFAULT_SMS_SEGMENT_LIMIT } from '@/server/messages/message-texts';
import { builtInDraft } from '@/server/messages/text-overview';

describe("Punctual's text as the editor's first draft", () => {
  it.each(templateIds.flatMap((kind) => catalogLocales.map((locale) => [kind, locale] as const)))('%s in %s passes the save check', (kind, locale) => {
    const draft = builtInDraft(kind, locale);
    expect(draft.subject && draft.body && draft.sms).toBeTruthy();
    expect(checkStaffText({ kind, locale, draft, smsSegmentLimit: DEFAULT_SMS_SEGMENT_LIMIT })).toEqual({ ok: true });
  });
});
