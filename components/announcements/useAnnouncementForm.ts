'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import type { AnnouncementPreview } from '@/server/messages/announcement-preview';
import type { AnnouncementView } from '@/server/messages/announcements';
import { ApiError, apiCall, newIdempotencyKey } from '@/components/ui/api';

/** One language's words. */
export interface TextFields {
  subject: string;
  body: string;
  sms: string;
}
const emptyText: TextFields = { subject: '', body: '', sms: '' };

/** The form's values: audience checkboxes, the text per language (`language`: the one being edited), and when. */
export interface AnnouncementFields {
  roles: string[];
  statuses: string[];
  channels: string[];
  language: string;
  texts: Record<string, TextFields>;
  when: 'now' | 'later';
  /** `YYYY-MM-DDTHH:mm` in the organisation's zone (datetime-local). */
  sendAt: string;
}

/** The request body of a create or preview from the fields. */
function bodyOf(f: AnnouncementFields) {
  return {
    audience: { roles: f.roles, statuses: f.statuses, channels: f.channels },
    texts: f.texts,
    sendAt: f.when === 'later' ? f.sendAt : null,
  };
}

/**
 * State of the "Message participants" form: the fields, a live preview (counts per channel and one real recipient's
 * message, POST …/announcements/preview, 400 ms after the last keystroke), and the send — with the idempotency key
 * made when the form opened (a double click or a retried request sends once), renewed after each success.
 */
export function useAnnouncementForm(eventId: string, defaultLanguage: string, onSent: (a: AnnouncementView) => void) {
  const [fields, setFields] = useState<AnnouncementFields>({
    roles: ['attendee', 'external'],
    statuses: ['confirmed'],
    channels: ['email', 'sms'],
    language: defaultLanguage,
    texts: { [defaultLanguage]: emptyText },
    when: 'now',
    sendAt: '',
  });
  const [previewFor, setPreviewFor] = useState<string | null>(null);
  const [preview, setPreview] = useState<AnnouncementPreview | null>(null);
  const [previewError, setPreviewError] = useState<{ message: string; field?: string } | null>(null);
  const [key, setKey] = useState(newIdempotencyKey);
  const seq = useRef(0);
  const base = `/api/events/${encodeURIComponent(eventId)}/announcements`;

  /** Asks for the preview of `f` now; its answer is kept only if no later request was made. Returns the problem it found, or null. */
  const load = useCallback(
    async (f: AnnouncementFields, bookingId: string | null): Promise<{ message: string; field?: string } | null> => {
      const n = ++seq.current;
      try {
        const b = bodyOf(f);
        const p = await apiCall<AnnouncementPreview>(`${base}/preview`, 'POST', { audience: b.audience, texts: b.texts, ...(bookingId ? { bookingId } : {}) });
        if (n === seq.current) {
          setPreview(p);
          setPreviewError(null);
        }
        return p.textProblem;
      } catch (e) {
        const problem = { message: e instanceof Error ? e.message : String(e), field: e instanceof ApiError ? e.field : undefined };
        if (n === seq.current) setPreviewError(problem);
        return problem;
      }
    },
    [base],
  );

  useEffect(() => {
    const t = setTimeout(() => void load(fields, previewFor), 400);
    return () => clearTimeout(t);
  }, [load, fields, previewFor]);

  /** The preview of the fields as they are now (not the debounced one): what the confirmation counts. */
  const checkNow = () => load(fields, previewFor);

  const set = <K extends keyof AnnouncementFields>(k: K, v: AnnouncementFields[K]) => setFields((f) => ({ ...f, [k]: v }));
  const toggle = (k: 'roles' | 'statuses' | 'channels', value: string, on: boolean) =>
    setFields((f) => ({ ...f, [k]: on ? [...f[k].filter((x) => x !== value), value] : f[k].filter((x) => x !== value) }));

  /** Changes one field of the language being edited. */
  const setText = (k: keyof TextFields, value: string) => setFields((f) => ({ ...f, texts: { ...f.texts, [f.language]: { ...(f.texts[f.language] ?? emptyText), [k]: value } } }));
  /** Adds a language (empty) and edits it; edits it when it is there already. */
  const addLanguage = (tag: string) => setFields((f) => ({ ...f, language: tag, texts: f.texts[tag] ? f.texts : { ...f.texts, [tag]: emptyText } }));
  /** Removes a language's text (never the last one). */
  const removeLanguage = (tag: string) =>
    setFields((f) => {
      const rest = Object.fromEntries(Object.entries(f.texts).filter(([t]) => t !== tag));
      if (Object.keys(rest).length === 0) return f;
      return { ...f, texts: rest, language: f.language === tag ? Object.keys(rest)[0] : f.language };
    });
  const text = fields.texts[fields.language] ?? emptyText;
  const nothingWritten = Object.values(fields.texts).every((t) => t.subject.trim() === '' && t.body.trim() === '');

  /** Sends (or schedules) the announcement. @throws ApiError naming the field. */
  async function send(): Promise<AnnouncementView> {
    const r = await apiCall<{ announcement: AnnouncementView; replayed: boolean }>(base, 'POST', { ...bodyOf(fields), idempotencyKey: key });
    setKey(newIdempotencyKey());
    setFields((f) => ({ ...f, texts: { [f.language]: emptyText }, when: 'now', sendAt: '' }));
    onSent(r.announcement);
    return r.announcement;
  }

  return { fields, text, nothingWritten, set, setText, addLanguage, removeLanguage, toggle, preview, previewError, previewFor, setPreviewFor, send, checkNow };
}
