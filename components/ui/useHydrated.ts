'use client';
/**
 * Whether React has hydrated this component (false in the server's HTML and until the first effect runs).
 *
 * Forms that submit through a handler disable their submit button until then: before hydration a click would
 * submit the form natively — as a GET, putting what was typed (a password) into the address, the history and the
 * server's access log — or be lost, and a person on a slow connection would see nothing happen.
 */
import { useEffect, useState } from 'react';

export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
