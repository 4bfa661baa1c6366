'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { describeChanges, mergeEdits, type FieldChange } from '@/domain/platform/edit-conflict';
import { describePolicy } from '@/domain/notifications/notification-policy';
import type { NotificationSettingsView } from '@/server/notifications/notification-settings';
import { notificationTemplateLabel } from '@/components/rules/template-labels';
import { ApiError, apiCall } from '@/components/ui/api';
import { staleSave } from '@/components/events/ConflictPanel';
import { changeFields, fieldsOf, pick, policyOf, type Fields } from './notification-fields';

/** The form's state and actions, as NotificationSettingsForm and its parts read them. */
export type NotificationSettingsState = ReturnType<typeof useNotificationSettings>;

/**
 * The state and submit logic of the notification settings editor (components/settings/NotificationSettingsForm.tsx):
 * the flat fields, the policy and its sentences, the save (PUT /api/notification-settings with the version the form
 * is based on; a secret made by the save is kept to show once), switching a switched-off endpoint on again, and
 * rotating the signing secret (POST /api/notification-settings/rotate-secret). A stale version becomes `conflict`
 * (ConflictPanel: apply mine on top, or discard); any other refusal becomes `error`, naming its field. Any edit
 * clears the error.
 */
export function useNotificationSettings(settings: NotificationSettingsView) {
  const router = useRouter();
  const id = useId();
  const [stored, setStored] = useState(settings);
  const [base, setBase] = useState<{ fields: Fields; version: number }>({ fields: fieldsOf(settings), version: settings.version });
  const [fields, setFields] = useState<Fields>(fieldsOf(settings));
  const [conflict, setConflict] = useState<{ message: string; latest: NotificationSettingsView; changes: FieldChange[] } | null>(null);
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [freshSecret, setFreshSecret] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [rotating, setRotating] = useState(false);
  useEffect(() => setError(null), [fields]);

  const set = (key: string, value: string | boolean) => setFields((f) => ({ ...f, [key]: value }));
  const policy = policyOf(fields);
  const sentences = describePolicy(policy, notificationTemplateLabel);

  /** Puts `next` into the fields, makes `latest` the stored settings and the new base, and shows `message`. */
  function adopt(next: Fields, latest: NotificationSettingsView, message: string | null) {
    setStored(latest);
    setBase({ fields: fieldsOf(latest), version: latest.version });
    setFields(next);
    setConflict(null);
    setNotice(message);
  }

  /** Saves the fields (with `over` on top) at the base version; a stale version opens the conflict panel, keeping the fields. */
  async function save(over: Fields = {}) {
    const f: Fields = { ...fields, ...over };
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const r = await apiCall<{ settings: NotificationSettingsView; secretCreated: boolean }>('/api/notification-settings', 'PUT', {
        policy: policyOf(f),
        smsSender: String(f.smsSender),
        webhookUrl: String(f.webhookUrl),
        webhookEnabled: f.webhookEnabled === true,
        version: base.version,
      });
      adopt(fieldsOf(r.settings), r.settings, r.secretCreated ? 'Saved. A signing secret was made for the endpoint: copy it into your receiver now.' : 'Saved.');
      if (r.secretCreated) setFreshSecret(r.settings.webhookSecret ?? null);
      router.refresh();
    } catch (err) {
      const stale = staleSave<NotificationSettingsView>(err);
      if (stale) {
        setFields(f);
        setConflict({ message: stale.message, latest: stale.current, changes: describeChanges(base.fields, fieldsOf(stale.current), changeFields) });
      } else {
        const field = err instanceof ApiError ? err.field : undefined;
        setError({ message: err instanceof Error ? err.message : String(err), field });
      }
    } finally {
      setBusy(false);
    }
  }

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    void save();
  }

  const errorId = `${id}-error`;
  const mark = (field: string) => (error?.field === field ? { 'aria-invalid': true as const, 'aria-describedby': errorId } : {});
  const switchedOff = !stored.webhookEnabled && stored.webhookDisabledAt;
  const secret = freshSecret ?? stored.webhookSecret ?? null;

  /** The conflict panel's "apply": this person's changes on top of the latest settings. */
  function applyMine() {
    if (!conflict) return;
    const r = mergeEdits(base.fields, fields, fieldsOf(conflict.latest));
    const kept = r.overlapping.map((k) => changeFields.find((c) => c.key === k)?.label ?? k);
    adopt(r.merged, conflict.latest, `Your changes are now on top of the latest version${kept.length ? ` (yours replaced theirs for: ${kept.join('; ')})` : ''}. Check them and save again.`);
  }

  /** The conflict panel's "discard": the latest settings, as they are. */
  function discardMine() {
    if (!conflict) return;
    adopt(fieldsOf(conflict.latest), conflict.latest, 'The form now shows the latest version.');
  }

  /** "Switch it on again": turns the endpoint on and saves at once. */
  function switchOnAgain() {
    set('webhookEnabled', true);
    void save({ webhookEnabled: true });
  }

  /** The rotate dialog's confirm: a new signing secret (shown once); a stale version opens the conflict panel, any other refusal is thrown to the dialog. */
  async function rotateSecret() {
    try {
      const r = await apiCall<NotificationSettingsView>('/api/notification-settings/rotate-secret', 'POST', { version: base.version });
      adopt({ ...fields, ...pick(fieldsOf(r), ['webhookUrl', 'webhookEnabled']) }, r, 'A new signing secret was made: copy it into your receiver now. The old one no longer signs anything.');
      setFreshSecret(r.webhookSecret ?? null);
      router.refresh();
    } catch (err) {
      const stale = staleSave<NotificationSettingsView>(err);
      if (stale) {
        setConflict({ message: stale.message, latest: stale.current, changes: describeChanges(base.fields, fieldsOf(stale.current), changeFields) });
        return;
      }
      throw err;
    }
  }

  return {
    id,
    stored,
    base,
    fields,
    set,
    policy,
    sentences,
    conflict,
    error,
    notice,
    freshSecret,
    secret,
    switchedOff,
    busy,
    rotating,
    setRotating,
    errorId,
    mark,
    onSubmit,
    applyMine,
    discardMine,
    switchOnAgain,
    rotateSecret,
  };
}
