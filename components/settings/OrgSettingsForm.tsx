'use client';

import { useRouter } from 'next/navigation';
import { useId, useRef, useState, type FormEvent } from 'react';
import { describeChanges, mergeEdits, onTopNotice, type FieldChange } from '@/domain/platform/edit-conflict';
import { messageLocales } from '@/domain/locales';
import type { EmailProvider } from '@/domain/vocabulary';
import { SMS_SEGMENT_LIMIT_RANGE } from '@/domain/organisations/org-settings';
import type { OrgSettingsView } from '@/server/organisations/org-settings';
import { ApiError, apiCall } from '@/components/ui/api';
import { ConflictPanel, staleSave } from '@/components/events/ConflictPanel';
import { FormFeedback } from '@/components/ui/FormFeedback';
import { ZoneInput } from '@/components/ui/ZoneInput';
import { providerLabels, settingsLabels } from './settings-labels';

type Fields = { name: string; timeZone: string; senderName: string; senderEmail: string; replyTo: string; locale: string; emailProvider: EmailProvider; smsSegmentLimit: string; unconfirmedAlertThreshold: string };
const fieldsOf = (s: OrgSettingsView): Fields => ({
  name: s.name,
  timeZone: s.timeZone,
  senderName: s.senderName ?? '',
  senderEmail: s.senderEmail,
  replyTo: s.replyTo ?? '',
  locale: s.locale,
  emailProvider: s.emailProvider,
  smsSegmentLimit: String(s.smsSegmentLimit),
  unconfirmedAlertThreshold: s.unconfirmedAlertThreshold === null ? '' : String(s.unconfirmedAlertThreshold),
});

const changeFields: { key: keyof Fields & string; label: string; format?: (v: string) => string }[] = [
  { key: 'name', label: settingsLabels.name },
  { key: 'timeZone', label: settingsLabels.timeZone },
  { key: 'senderName', label: settingsLabels.senderName, format: (v) => v || '(the organisation name)' },
  { key: 'senderEmail', label: settingsLabels.senderEmail },
  { key: 'replyTo', label: settingsLabels.replyTo, format: (v) => v || '(none)' },
  { key: 'locale', label: settingsLabels.locale },
  { key: 'emailProvider', label: settingsLabels.emailProvider, format: (v) => providerLabels[v as EmailProvider] ?? v },
  { key: 'smsSegmentLimit', label: settingsLabels.smsSegmentLimit },
  { key: 'unconfirmedAlertThreshold', label: settingsLabels.unconfirmedAlertThreshold, format: (v) => v || '(no alert)' },
];

/**
 * What a save says: the From and Reply-To mail now goes out with — the deployment's own address while the sender
 * address is not verified (server/organisations/sender-identity.ts) — and whether a verification link went out.
 */
function savedNotice(r: OrgSettingsView): string {
  const from = r.sender?.from ?? r.senderEmail;
  const replyTo = r.sender ? r.sender.replyTo : r.replyTo;
  const link = r.verificationSent ? ` ${r.senderEmail} is not verified yet: we sent a link to it — an admin opens it to verify.` : '';
  return `Saved. Mail now comes from “${r.effectiveSenderName}” <${from}>${replyTo ? `, replies go to ${replyTo}` : ''}.${link}`;
}

/**
 * The organisation settings form (admins, issue #13): name, default time zone, sender name (empty = the name) and
 * address, reply-to, default language and email provider. Saves the whole form with PUT /api/settings and the
 * version it was opened at; a stale save shows the ConflictPanel (what changed; apply my changes on top, or
 * discard) and writes nothing.
 */
export function OrgSettingsForm({ settings, zones }: { settings: OrgSettingsView; zones: string[] }) {
  const router = useRouter();
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [base, setBase] = useState<{ fields: Fields; version: number }>({ fields: fieldsOf(settings), version: settings.version });
  const [fields, setFields] = useState<Fields>(fieldsOf(settings));
  /** Remounts the time zone field (it keeps its own state) when the form adopts other values. */
  const [zoneKey, setZoneKey] = useState(0);
  const [conflict, setConflict] = useState<{ message: string; latest: OrgSettingsView; changes: FieldChange[] } | null>(null);
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const set = <K extends keyof Fields>(k: K, v: Fields[K]) => setFields((f) => ({ ...f, [k]: v }));
  const current = (): Fields => ({ ...fields, timeZone: String(new FormData(formRef.current!).get('timeZone') ?? fields.timeZone) });

  function adopt(next: Fields, latest: OrgSettingsView, message: string | null) {
    setBase({ fields: fieldsOf(latest), version: latest.version });
    setFields(next);
    setZoneKey((k) => k + 1);
    setConflict(null);
    setNotice(message);
  }

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = current();
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const r = await apiCall<OrgSettingsView>('/api/settings', 'PUT', { ...f, version: base.version });
      adopt(fieldsOf(r), r, r.version === base.version ? 'Nothing changed.' : savedNotice(r));
      router.refresh();
    } catch (err) {
      const stale = staleSave<OrgSettingsView>(err);
      if (stale) {
        setFields(f);
        setConflict({ message: stale.message, latest: stale.current, changes: describeChanges(base.fields, fieldsOf(stale.current), changeFields) });
      } else setError({ message: err instanceof Error ? err.message : String(err), field: err instanceof ApiError ? err.field : undefined });
    } finally {
      setBusy(false);
    }
  }

  const errorId = `${id}-error`;
  const mark = (field: keyof Fields) => (error?.field === field ? { 'aria-invalid': true as const, 'aria-describedby': errorId } : {});
  const knownLocale = messageLocales.some((l) => l.tag === fields.locale);
  return (
    <form ref={formRef} className="card form settings-form" onSubmit={onSubmit} noValidate aria-label="Organisation settings">
      {conflict ? (
        <ConflictPanel
          message={conflict.message}
          changes={conflict.changes}
          onApply={() => {
            const r = mergeEdits(base.fields, fields, fieldsOf(conflict.latest));
            adopt(r.merged, conflict.latest, onTopNotice(r.overlapping.map((k) => settingsLabels[k as keyof Fields] ?? k)));
          }}
          onDiscard={() => adopt(fieldsOf(conflict.latest), conflict.latest, 'The form now shows the latest version.')}
        />
      ) : null}
      <h2>Organisation</h2>
      <div className="form-grid">
        <label className="field">
          <span>{settingsLabels.name}</span>
          <input name="name" value={fields.name} onChange={(e) => set('name', e.target.value)} required maxLength={200} autoComplete="organization" {...mark('name')} />
        </label>
        <label className="field">
          <span>{settingsLabels.timeZone}</span>
          <ZoneInput key={zoneKey} name="timeZone" zones={zones} defaultValue={fields.timeZone} required invalid={error?.field === 'timeZone' || undefined} hint="For events and people that name none." listId={`${id}-zones`} />
        </label>
        <label className="field">
          <span>{settingsLabels.locale}</span>
          <input name="locale" value={fields.locale} onChange={(e) => set('locale', e.target.value)} list={`${id}-locales`} required autoComplete="off" spellCheck={false} aria-describedby={`${id}-locale-hint`} {...mark('locale')} />
          <datalist id={`${id}-locales`}>
            {messageLocales.map((l) => (
              <option key={l.tag} value={l.tag}>
                {l.label}
              </option>
            ))}
          </datalist>
          <span className="field-hint" id={`${id}-locale-hint`}>
            A language tag (en, nl, pt-BR){knownLocale ? ` — ${messageLocales.find((l) => l.tag === fields.locale)!.label}` : ''}: for people added without one, and the language of messages to people whose own language Punctual has no text for.
          </span>
        </label>
      </div>
      <h2>Outgoing mail</h2>
      <div className="form-grid">
        <label className="field">
          <span>{settingsLabels.senderName}</span>
          <input name="senderName" value={fields.senderName} onChange={(e) => set('senderName', e.target.value)} placeholder={fields.name} maxLength={200} aria-describedby={`${id}-sender-hint`} {...mark('senderName')} />
          <span className="field-hint" id={`${id}-sender-hint`}>
            Empty: the organisation name.
          </span>
        </label>
        <label className="field">
          <span>{settingsLabels.senderEmail}</span>
          <input name="senderEmail" type="email" value={fields.senderEmail} onChange={(e) => set('senderEmail', e.target.value)} required maxLength={254} {...mark('senderEmail')} />
        </label>
        <label className="field">
          <span>{settingsLabels.replyTo}</span>
          <input name="replyTo" type="email" value={fields.replyTo} onChange={(e) => set('replyTo', e.target.value)} maxLength={254} aria-describedby={`${id}-reply-hint`} {...mark('replyTo')} />
          <span className="field-hint" id={`${id}-reply-hint`}>
            Optional: where replies go instead of the sender address.
          </span>
        </label>
        <label className="field">
          <span>{settingsLabels.emailProvider}</span>
          <select name="emailProvider" value={fields.emailProvider} onChange={(e) => set('emailProvider', e.target.value as EmailProvider)} {...mark('emailProvider')}>
            {(Object.keys(providerLabels) as EmailProvider[]).map((p) => (
              <option key={p} value={p}>
                {providerLabels[p]}
              </option>
            ))}
          </select>
        </label>
        <label className="field" id="smsSegmentLimit">
          <span>{settingsLabels.smsSegmentLimit}</span>
          <input
            name="smsSegmentLimit"
            type="number"
            inputMode="numeric"
            min={SMS_SEGMENT_LIMIT_RANGE.min}
            max={SMS_SEGMENT_LIMIT_RANGE.max}
            step={1}
            value={fields.smsSegmentLimit}
            onChange={(e) => set('smsSegmentLimit', e.target.value)}
            aria-describedby={`${id}-sms-hint`}
            {...mark('smsSegmentLimit')}
          />
          <span className="field-hint" id={`${id}-sms-hint`}>
            Most parts one of your own text messages may take ({SMS_SEGMENT_LIMIT_RANGE.min}–{SMS_SEGMENT_LIMIT_RANGE.max}); each part is billed as one SMS (160
            plain characters alone, 153 per part, 67 with emoji or non-Latin letters). Texts over it are refused when saved.
          </span>
        </label>
        <label className="field" id="unconfirmedAlertThreshold">
          <span>{settingsLabels.unconfirmedAlertThreshold}</span>
          <input
            name="unconfirmedAlertThreshold"
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            value={fields.unconfirmedAlertThreshold}
            onChange={(e) => set('unconfirmedAlertThreshold', e.target.value)}
            aria-describedby={`${id}-unconfirmed-hint`}
            {...mark('unconfirmedAlertThreshold')}
          />
          <span className="field-hint" id={`${id}-unconfirmed-hint`}>
            Today warns about an event starting within 24 hours when more participants than this have not confirmed they will come. Empty: no warning.
          </span>
        </label>
      </div>
      <p className="small muted settings-from" data-testid="from-preview">
        Mail reads: From “{fields.senderName.trim() || fields.name}” &lt;{fields.senderEmail}&gt;{fields.replyTo.trim() ? `, Reply-To ${fields.replyTo.trim()}` : ''}
      </p>
      <FormFeedback error={error} notice={notice} labels={settingsLabels} errorId={errorId} />
      <div className="actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save settings'}
        </button>
        <span className="muted small">Version {base.version}</span>
      </div>
    </form>
  );
}
