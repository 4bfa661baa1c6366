'use client';

import { useEffect, useRef, useState } from 'react';
import type { StaffDraft, StaffTextError } from '@/domain/messages/staff-text';
import type { TextPreview } from '@/server/messages/text-preview';
import { apiCall } from '@/components/ui/api';
import { checkErrors } from './useTextEditor';

/** Wait after the last keystroke before asking for a preview (ms). */
export const PREVIEW_DEBOUNCE_MS = 400;

/**
 * The live preview of the fields: POST /api/message-texts/:kind/:locale/preview `{ ...draft, bookingId }`
 * {@link PREVIEW_DEBOUNCE_MS} after the last change (at once for the first one and for another participant). An
 * answer to an older request than the newest is dropped. A draft the check refuses gives its errors to `onErrors`
 * (shown beside the fields) and keeps the last good preview, marked stale; a good one clears them.
 */
export function useTextPreview(url: string, draft: StaffDraft, bookingId: string, onErrors: (errors: StaffTextError[]) => void) {
  const [preview, setPreview] = useState<TextPreview | null>(null);
  const [stale, setStale] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const seq = useRef(0);
  const first = useRef(true);
  const lastBooking = useRef(bookingId);
  const report = useRef(onErrors);
  report.current = onErrors;

  useEffect(() => {
    const immediate = first.current || lastBooking.current !== bookingId;
    first.current = false;
    lastBooking.current = bookingId;
    const n = ++seq.current;
    const timer = setTimeout(
      async () => {
        setLoading(true);
        try {
          const p = await apiCall<TextPreview>(`${url}/preview`, 'POST', { ...draft, bookingId: bookingId || null });
          if (n !== seq.current) return;
          setPreview(p);
          setStale(false);
          setFailure(null);
          report.current([]);
        } catch (err) {
          if (n !== seq.current) return;
          const errors = checkErrors(err);
          setStale(true);
          if (errors) {
            setFailure(null);
            report.current(errors);
          } else setFailure(err instanceof Error ? err.message : String(err));
        } finally {
          if (n === seq.current) setLoading(false);
        }
      },
      immediate ? 0 : PREVIEW_DEBOUNCE_MS,
    );
    return () => clearTimeout(timer);
  }, [url, draft.subject, draft.body, draft.sms, bookingId]);

  return { preview, stale, failure, loading };
}
