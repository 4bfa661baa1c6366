'use client';

import { useEffect } from 'react';

/**
 * For a Next error boundary: logs `error` to the browser console once per error and returns its `digest` (the id
 * Next puts on a server error, matching the server log line), or '' when it has none.
 */
export function useLoggedErrorDigest(error: unknown): string {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return error && typeof error === 'object' && 'digest' in error ? String((error as { digest?: unknown }).digest ?? '') : '';
}
