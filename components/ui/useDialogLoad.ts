'use client';

import { useEffect, useEffectEvent, useState, type RefObject } from 'react';
import { apiCall } from './api';

/**
 * For an edit dialog that loads its record when opened: on mount (and again when `url` changes) opens the
 * `<dialog>` in `ref` as a modal and GETs `url` with apiCall. The body goes to `onLoad`; a failure's message is
 * returned (null until one happens). A result that arrives after the dialog closed or `url` changed is dropped.
 */
export function useDialogLoad<T>(ref: RefObject<HTMLDialogElement | null>, url: string, onLoad: (value: T) => void): string | null {
  const [loadError, setLoadError] = useState<string | null>(null);
  const loaded = useEffectEvent(onLoad);
  useEffect(() => {
    ref.current?.showModal();
    let stale = false;
    apiCall<T>(url, 'GET')
      .then((p) => {
        if (!stale) loaded(p);
      })
      .catch((e: Error) => !stale && setLoadError(e.message));
    return () => {
      stale = true;
    };
  }, [ref, url]);
  return loadError;
}
