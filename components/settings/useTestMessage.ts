'use client';

import { useEffect, useRef, useState } from 'react';
import { TEST_MESSAGE_PATIENCE_MS } from '@/domain/organisations/org-settings';
import type { TestMessageView } from '@/server/organisations/org-settings';
import { apiCall } from '@/components/ui/api';

/** The words of a finished test message's status. */
export const testStatusWords: Record<Exclude<TestMessageView['status'], 'pending'>, string> = {
  sent: 'Accepted by the provider',
  failed: 'Refused',
  unknown: 'Unknown — it may or may not have gone out',
};

/**
 * A test message being followed (the settings page's "send a test message", the text editor's "send a test to me"):
 * `start(m)` with the pending message a POST answered; while pending, GET /api/settings/test-message/:id every second
 * until a worker has sent it; `waitedLong` after {@link TEST_MESSAGE_PATIENCE_MS} without an answer (it keeps polling).
 */
export function useTestMessage() {
  const [message, setMessage] = useState<TestMessageView | null>(null);
  const [waitedLong, setWaitedLong] = useState(false);
  const askedAt = useRef(0);
  useEffect(() => {
    if (!message || message.status !== 'pending') return;
    let stopped = false;
    const timer = setInterval(async () => {
      if (Date.now() - askedAt.current >= TEST_MESSAGE_PATIENCE_MS) setWaitedLong(true);
      try {
        const m = await apiCall<TestMessageView>(`/api/settings/test-message/${message.id}`, 'GET');
        if (!stopped && m.status !== 'pending') setMessage(m);
      } catch {
        // A failed poll is tried again on the next tick.
      }
    }, 1000);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [message]);
  function start(m: TestMessageView) {
    askedAt.current = Date.now();
    setWaitedLong(false);
    setMessage(m);
  }
  return { message, waitedLong, start };
}
