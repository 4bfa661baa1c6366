'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { describeRule } from '@/domain/rules/describe-rule';
import { describeChanges, mergeEdits, onTopNotice, type FieldChange } from '@/domain/platform/edit-conflict';
import { offsetToParts, partsToOffset, OffsetPartsError, type OffsetDirection, type OffsetUnit } from '@/domain/rules/rule-offset';
import { anchors, bookingRoles, reminderTemplateIds, type Anchor, type BookingRole, type Channel, type TemplateId } from '@/domain/vocabulary';
import { impactLines, pendingText, type RuleImpactCounts } from '@/domain/rules/rule-impact';
import { ApiError, apiCall, newIdempotencyKey } from '@/components/ui/api';
import { ConflictPanel, staleSave } from '@/components/events/ConflictPanel';
import { FormFeedback } from '@/components/ui/FormFeedback';

/** The rule as the edit page hands it over (plain JSON); `id` null on /rules/new (version 0). */
interface RuleFormValue {
  id: string | null;
  name: string;
  anchor: Anchor;
  /** ISO-8601 duration, e.g. `-P1D`. */
  offset: string;
  audience: BookingRole[];
  channel: Channel;
  template: TemplateId;
  lateSendWindowSeconds: number;
  active: boolean;
  /** Row version the form is opened at; a save carries it (invariant 11). */
  version: number;
}

/** The editable fields of a rule (what the conflict panel compares and the merge combines). */
type RuleFields = Omit<RuleFormValue, 'id' | 'version'>;

function ruleFields(r: RuleFields): RuleFields {
  return { name: r.name, anchor: r.anchor, offset: r.offset, audience: r.audience, channel: r.channel, template: r.template, lateSendWindowSeconds: r.lateSendWindowSeconds, active: r.active };
}

/** "1 day before", "2 hours after", "exactly at"; the ISO text for offsets that mix units. */
function offsetText(offset: unknown): string {
  const p = typeof offset === 'string' ? offsetToParts(offset) : null;
  if (!p) return String(offset);
  if (p.direction === 'at') return 'exactly at';
  const unit = p.amount === 1 ? p.unit.replace(/s$/, '') : p.unit;
  return `${p.amount} ${unit} ${p.direction}`;
}

/** Fields the form can point an error at (the server's field names, plus the editor's own). */
type Field = 'name' | 'anchor' | 'offset' | 'amount' | 'audience' | 'channel' | 'template' | 'lateSendWindowSeconds' | 'active';

const fieldLabels: Record<Field, string> = {
  name: 'Name',
  anchor: 'Anchor',
  offset: 'Offset',
  amount: 'Amount',
  audience: 'Audience',
  channel: 'Channel',
  template: 'Template',
  lateSendWindowSeconds: 'Late-send window',
  active: 'Active',
};

const anchorLabels: Record<Anchor, string> = { start: 'the start', room_open: 'the room opening', end: 'the end' };
const unitLabels: Record<OffsetUnit, string> = { minutes: 'minutes', hours: 'hours', days: 'days (same local time)', weeks: 'weeks (same local time)' };
const directionLabels: Record<OffsetDirection, string> = { before: 'before', at: 'exactly at', after: 'after' };
const roleLabels: Record<BookingRole, string> = { attendee: 'Attendees', external: 'External guests (reminded in their own organisation’s name)', host: 'Hosts' };
const MAX_WINDOW_MINUTES = 30 * 24 * 60;

/** Fields whose change can move, add or cancel planned reminders (the name and the template cannot: read at send time). */
const PLANNING_FIELDS = ['anchor', 'offset', 'audience', 'channel', 'lateSendWindowSeconds', 'active'] as const;

/**
 * The reminder-rule editor (admins), for a new rule (`rule.id` null, /rules/new) and an existing one: name, anchor,
 * the offset as "amount + unit + before/after" (or, for an offset that mixes units, its ISO-8601 text), audience,
 * channel, template, late-send window in minutes and active. Under the form the rule is read back live with
 * `describeRule`.
 *
 * Issue #13: saving a new rule, or a change of timing, audience, channel or active, first asks the server what it
 * would do (POST /api/rules/impact, read-only) and shows "N pending reminders" with two choices — "Save and
 * re-plan N pending reminders" / "Save — new bookings only" (deactivating: "Save and cancel its N pending
 * reminders" / "Save — let them go out"). Creates with POST /api/rules (Idempotency-Key), saves with PUT
 * /api/rules/:id, then returns to /rules, which says what was applied. A refusal (400 naming the field, 403, a
 * stale version's ConflictPanel) is shown beside the form.
 */
export function RuleForm({ rule, templateTitles }: { rule: RuleFormValue; templateTitles: Record<TemplateId, string> }) {
  const router = useRouter();
  const id = useId();
  /** What the form was opened with (after "apply", the latest rule) and its version: the base of every diff. */
  const [base, setBase] = useState<{ fields: RuleFields; version: number }>({ fields: ruleFields(rule), version: rule.version });
  const [conflict, setConflict] = useState<{ message: string; latest: RuleFormValue; changes: FieldChange[] } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const initialParts = offsetToParts(rule.offset);
  const [name, setName] = useState(rule.name);
  const [anchor, setAnchor] = useState<Anchor>(rule.anchor);
  const [isoMode, setIsoMode] = useState(initialParts === null);
  const [isoOffset, setIsoOffset] = useState(rule.offset);
  const [amount, setAmount] = useState(String(initialParts?.amount ?? 1));
  const [unit, setUnit] = useState<OffsetUnit>(initialParts?.unit ?? 'days');
  const [direction, setDirection] = useState<OffsetDirection>(initialParts?.direction ?? 'before');
  const [audience, setAudience] = useState<BookingRole[]>(rule.audience);
  const [channel, setChannel] = useState<Channel>(rule.channel);
  const [template, setTemplate] = useState<TemplateId>(rule.template);
  const [windowMinutes, setWindowMinutes] = useState(String(Math.round(rule.lateSendWindowSeconds / 60)));
  const [active, setActive] = useState(rule.active);
  const [error, setError] = useState<{ message: string; field?: Field } | null>(null);
  const [busy, setBusy] = useState(false);
  /** The server's preview of what saving these values would do to pending reminders (cleared by any edit). */
  const [impact, setImpact] = useState<(RuleImpactCounts & { lines: string[] }) | null>(null);
  const [idempotencyKey] = useState(newIdempotencyKey);
  // A refusal or a preview is about the values it was given: any edit clears it (the next save checks again).
  useEffect(() => {
    setError(null);
    setImpact(null);
  }, [name, anchor, isoMode, isoOffset, amount, unit, direction, audience, channel, template, windowMinutes, active]);
  const isNew = rule.id === null;

  /** The offset the fields describe, or the problem with them. */
  const offset = useMemo((): { value: string } | { error: string; field: Field } => {
    if (isoMode) return describable(isoOffset) ? { value: isoOffset.trim() } : { error: 'Offset: must be an ISO-8601 duration such as -P1D or -PT2H', field: 'offset' };
    const n = amount.trim() === '' ? Number.NaN : Number(amount);
    try {
      return { value: partsToOffset({ amount: n, unit, direction }) };
    } catch (e) {
      if (e instanceof OffsetPartsError) return { error: `${fieldLabels[e.field === 'amount' ? 'amount' : 'offset']}: ${e.message.replace(/^\w+: /, '')}`, field: e.field === 'amount' ? 'amount' : 'offset' };
      throw e;
    }
  }, [isoMode, isoOffset, amount, unit, direction]);

  const windowSeconds = windowMinutes.trim() === '' ? Number.NaN : Number(windowMinutes) * 60;
  const problem: { message: string; field: Field } | null =
    !name.trim()
      ? { message: 'Name: required', field: 'name' }
      : 'error' in offset
        ? { message: offset.error, field: offset.field }
        : audience.length === 0
          ? { message: 'Audience: choose at least one role', field: 'audience' }
          : !Number.isInteger(windowSeconds) || windowSeconds < 0 || windowSeconds > MAX_WINDOW_MINUTES * 60
            ? { message: `Late-send window: a whole number of minutes from 0 to ${MAX_WINDOW_MINUTES} (30 days)`, field: 'lateSendWindowSeconds' }
            : null;

  const sentence =
    'value' in offset && audience.length > 0 && Number.isInteger(windowSeconds) && windowSeconds >= 0
      ? describeRule({ anchor, offset: offset.value, audience, channel, lateSendWindowSeconds: windowSeconds })
      : null;

  const changeFields: { key: keyof RuleFields; label: string; format?: (v: unknown) => string }[] = [
    { key: 'name', label: 'Name' },
    { key: 'anchor', label: 'Anchor', format: (v) => anchorLabels[v as Anchor] ?? String(v) },
    { key: 'offset', label: 'Offset', format: offsetText },
    { key: 'audience', label: 'Audience', format: (v) => (Array.isArray(v) ? bookingRoles.filter((r) => v.includes(r)).join(', ') : String(v)) },
    { key: 'channel', label: 'Channel' },
    { key: 'template', label: 'Template', format: (v) => templateTitles[v as TemplateId] ?? String(v) },
    { key: 'lateSendWindowSeconds', label: 'Late-send window', format: (v) => `${Math.round(Number(v) / 60)} minutes` },
    { key: 'active', label: 'Active', format: (v) => (v ? 'yes' : 'no') },
  ];

  /** The rule as the fields describe it now (what this person has typed). */
  function mine(): RuleFields {
    return {
      name,
      anchor,
      offset: 'value' in offset ? offset.value : isoOffset,
      audience: bookingRoles.filter((r) => audience.includes(r)),
      channel,
      template,
      lateSendWindowSeconds: Number.isFinite(windowSeconds) ? windowSeconds : Number.NaN,
      active,
    };
  }

  /** Puts `next` into the fields and makes `latest` (with its version) the new base. */
  function adopt(next: RuleFields, latest: RuleFormValue, message: string) {
    setBase({ fields: ruleFields(latest), version: latest.version });
    setName(next.name);
    setAnchor(next.anchor);
    const parts = offsetToParts(next.offset);
    setIsoOffset(next.offset);
    setIsoMode(parts === null);
    if (parts) {
      setAmount(String(parts.amount || 1));
      setUnit(parts.unit);
      setDirection(parts.direction);
    }
    setAudience(next.audience);
    setChannel(next.channel);
    setTemplate(next.template);
    setWindowMinutes(Number.isFinite(next.lateSendWindowSeconds) ? String(Math.round(next.lateSendWindowSeconds / 60)) : windowMinutes);
    setActive(next.active);
    setConflict(null);
    setNotice(message);
  }

  function applyMine() {
    if (!conflict) return;
    const r = mergeEdits(base.fields, mine(), ruleFields(conflict.latest));
    const kept = r.overlapping.map((k) => changeFields.find((f) => f.key === k)?.label ?? k);
    adopt(r.merged, conflict.latest, onTopNotice(kept, 'the rule'));
  }

  /** The rule as it would be sent (valid fields only). */
  function draft() {
    return {
      name: name.trim(),
      anchor,
      offset: 'value' in offset ? offset.value : isoOffset,
      audience: bookingRoles.filter((r) => audience.includes(r)),
      channel,
      template,
      lateSendWindowSeconds: windowSeconds,
      active,
    };
  }

  const deactivating = !isNew && base.fields.active && !active;

  /** "Save rule"/"Create rule": a change that can touch planned reminders is previewed first; any other is saved. */
  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setNotice(null);
    if (problem || !('value' in offset)) {
      setError(problem ?? { message: 'Offset: invalid', field: 'offset' });
      return;
    }
    const d = draft();
    const touchesPlanning = isNew || PLANNING_FIELDS.some((k) => JSON.stringify(d[k]) !== JSON.stringify(base.fields[k]));
    if (!touchesPlanning) return save('new_only');
    setBusy(true);
    setError(null);
    try {
      setImpact(await apiCall<RuleImpactCounts & { lines: string[] }>('/api/rules/impact', 'POST', { ruleId: rule.id ?? undefined, rule: d }));
      setBusy(false);
    } catch (err) {
      fail(err);
    }
  }

  /** Creates or saves with the chosen treatment of pending reminders; then back to /rules, which says what was applied. */
  async function save(choice: 'replan' | 'new_only') {
    setBusy(true);
    setError(null);
    try {
      const body = { ...draft(), choice, previewPending: impact?.pending ?? null };
      const res = isNew
        ? await apiCall<{ rule: { id: string } }>('/api/rules', 'POST', body, { idempotencyKey })
        : await apiCall<{ rule: { id: string } }>(`/api/rules/${encodeURIComponent(rule.id!)}`, 'PUT', { ...body, version: base.version });
      router.push(`/rules?saved=${encodeURIComponent(res.rule.id)}`);
      router.refresh();
    } catch (err) {
      fail(err);
    }
  }

  /** Shows a refusal: a stale version as the ConflictPanel, anything else beside the form naming its field. */
  function fail(err: unknown) {
    const stale = staleSave<RuleFormValue>(err);
    if (stale) {
      setConflict({ message: stale.message, latest: stale.current, changes: describeChanges(base.fields, ruleFields(stale.current), changeFields) });
      setBusy(false);
      return;
    }
    const field = err instanceof ApiError && err.field && err.field in fieldLabels ? (err.field as Field) : undefined;
    const raw = err instanceof Error ? err.message : String(err);
    const serverField = field === 'offset' && !isoMode ? 'amount' : field;
    setError({ message: field ? `${fieldLabels[field]}: ${raw.replace(new RegExp(`^${field}: `), '')}` : raw, field: serverField });
    setBusy(false);
  }

  const errorId = `${id}-error`;
  const mark = (...fields: Field[]) => (error?.field && fields.includes(error.field) ? { 'aria-invalid': true as const, 'aria-describedby': errorId } : {});

  return (
    <form className="form rule-form" onSubmit={onSubmit} noValidate aria-label={isNew ? 'New rule' : `Edit rule ${rule.name}`}>
      {conflict ? (
        <ConflictPanel
          message={conflict.message}
          changes={conflict.changes}
          onApply={applyMine}
          onDiscard={() => adopt(ruleFields(conflict.latest), conflict.latest, 'The form now shows the latest version.')}
        />
      ) : null}
      <p className="notice notice-warn">
        {isNew ? 'A new rule' : 'A change of timing, audience or active'} shows how many pending reminders of upcoming events it affects before it is saved: re-plan them now, or apply it to new
        bookings only.
      </p>

      <label className="field">
        <span>Name</span>
        <input name="name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} {...mark('name')} />
      </label>

      <fieldset className="rule-fieldset" {...(error?.field && ['offset', 'amount', 'anchor'].includes(error.field) ? { 'aria-describedby': errorId } : {})}>
        <legend>When</legend>
        {isoMode ? (
          <div className="rule-when">
            <label className="field rule-iso">
              <span>Offset (ISO-8601 duration)</span>
              <input name="offset" className="mono" required value={isoOffset} onChange={(e) => setIsoOffset(e.target.value)} {...mark('offset')} />
            </label>
            <AnchorSelect value={anchor} onChange={setAnchor} />
          </div>
        ) : (
          <div className="rule-when">
            <label className="field rule-amount">
              <span>Amount</span>
              <input
                name="amount"
                type="number"
                inputMode="numeric"
                min={0}
                step={1}
                value={direction === 'at' ? '' : amount}
                disabled={direction === 'at'}
                required={direction !== 'at'}
                onChange={(e) => setAmount(e.target.value)}
                {...mark('amount', 'offset')}
              />
            </label>
            <label className="field">
              <span>Unit</span>
              <select name="unit" value={unit} disabled={direction === 'at'} onChange={(e) => setUnit(e.target.value as OffsetUnit)}>
                {(Object.keys(unitLabels) as OffsetUnit[]).map((u) => (
                  <option key={u} value={u}>
                    {unitLabels[u]}
                  </option>
                ))}
              </select>
            </label>
            <label className="field">
              <span>Before or after</span>
              <select name="direction" value={direction} onChange={(e) => setDirection(e.target.value as OffsetDirection)}>
                {(Object.keys(directionLabels) as OffsetDirection[]).map((d) => (
                  <option key={d} value={d}>
                    {directionLabels[d]}
                  </option>
                ))}
              </select>
            </label>
            <AnchorSelect value={anchor} onChange={setAnchor} />
          </div>
        )}
        <p className="field-hint">
          Days and weeks are calendar days: the reminder keeps the same local time in the event&apos;s zone, even across a
          daylight-saving change. Hours and minutes are elapsed time: 24 hours before is exactly 24 hours earlier.
          {'value' in offset ? (
            <>
              {' '}
              Stored as <code data-testid="rule-offset">{offset.value}</code>.
            </>
          ) : null}
        </p>
        <label className="rule-iso-toggle small">
          <input
            type="checkbox"
            checked={isoMode}
            onChange={(e) => {
              if (e.target.checked) {
                if ('value' in offset) setIsoOffset(offset.value);
                setIsoMode(true);
                return;
              }
              const parts = offsetToParts(isoOffset);
              if (!parts) {
                setError({ message: `Offset: ${isoOffset || 'this duration'} mixes units (or is not ISO-8601), so it has no amount + unit form; edit it as text`, field: 'offset' });
                return;
              }
              setAmount(String(parts.amount || 1));
              setUnit(parts.unit);
              setDirection(parts.direction);
              setIsoMode(false);
            }}
          />{' '}
          Write the offset as ISO-8601 text (for an offset such as -P1DT2H)
        </label>
      </fieldset>

      <fieldset className="rule-fieldset" {...(error?.field === 'audience' ? { 'aria-describedby': errorId } : {})}>
        <legend>Audience</legend>
        <div className="rule-audience">
          {bookingRoles.map((r) => (
            <label key={r} className="rule-check">
              <input
                type="checkbox"
                name="audience"
                value={r}
                checked={audience.includes(r)}
                onChange={(e) => setAudience((a) => (e.target.checked ? [...a, r] : a.filter((x) => x !== r)))}
              />{' '}
              {roleLabels[r]}
            </label>
          ))}
        </div>
      </fieldset>

      <div className="form-grid">
        <div className="field">
          <span className="field-label">Channels</span>
          <p className="field-hint" id={`${id}-channel-hint`}>
            Each participant&apos;s preferences choose email and/or SMS (email unless they chose otherwise).
          </p>
        </div>
        <div className="field">
          <label htmlFor={`${id}-template`}>Template</label>
          <select id={`${id}-template`} name="template" value={template} onChange={(e) => setTemplate(e.target.value as TemplateId)} {...mark('template')}>
            {reminderTemplateIds.map((t) => (
              <option key={t} value={t}>
                {templateTitles[t]}
              </option>
            ))}
          </select>
          <p className="field-hint">
            <Link href="/templates">Preview the templates</Link>
          </p>
        </div>
        <div className="field">
          <label htmlFor={`${id}-window`}>Late-send window (minutes)</label>
          <input
            id={`${id}-window`}
            name="lateSendWindowMinutes"
            type="number"
            inputMode="numeric"
            min={0}
            max={MAX_WINDOW_MINUTES}
            step={1}
            required
            value={windowMinutes}
            onChange={(e) => setWindowMinutes(e.target.value)}
            aria-describedby={error?.field === 'lateSendWindowSeconds' ? `${errorId} ${id}-window-hint` : `${id}-window-hint`}
            aria-invalid={error?.field === 'lateSendWindowSeconds' ? true : undefined}
          />
          <p className="field-hint" id={`${id}-window-hint`}>
            A reminder that cannot go out within this many minutes of its due time (after an outage, say) is not sent late; it ends expired.
          </p>
        </div>
      </div>

      <label className="rule-check">
        <input type="checkbox" name="active" checked={active} onChange={(e) => setActive(e.target.checked)} /> Active — plan reminders from this rule
      </label>

      <div className="rule-sentence" aria-live="polite">
        <span className="rule-sentence-label">Reads as</span>
        <p data-testid="rule-sentence">{sentence ?? <span className="muted">— fix the fields above to see the sentence —</span>}</p>
        {!active ? <p className="small muted">Inactive: no reminders are planned from this rule.</p> : null}
      </div>

      <FormFeedback error={error} notice={notice} errorId={errorId} />

      {impact ? (
        <section className="rule-impact card" aria-label="Pending reminders affected" data-testid="rule-impact">
          <p className="rule-impact-count">
            <strong>{pendingText(impact.pending)}</strong> of upcoming events {deactivating ? 'would be cancelled' : isNew ? 'would be added' : 'would be added, moved or cancelled'}.
          </p>
          {impactLines(impact).length > 1 || impact.pending > 0 ? (
            <ul className="rule-impact-lines small">
              {impactLines(impact).map((l) => (
                <li key={l}>{l}</li>
              ))}
            </ul>
          ) : null}
          <p className="small muted">Reminders already handed to a send are never touched; none is planned twice.</p>
          <div className="actions">
            {impact.pending > 0 ? (
              <>
                <button type="button" className="btn btn-primary" disabled={busy} onClick={() => save('replan')}>
                  {deactivating ? `Save and cancel its ${pendingText(impact.pending)}` : `Save and re-plan ${pendingText(impact.pending)}`}
                </button>
                <button type="button" className="btn" disabled={busy} onClick={() => save('new_only')}>
                  {deactivating ? 'Save — let them go out' : 'Save — new bookings only'}
                </button>
              </>
            ) : (
              <button type="button" className="btn btn-primary" disabled={busy} onClick={() => save('new_only')}>
                {isNew ? 'Create rule' : 'Save rule'} — nothing to re-plan
              </button>
            )}
          </div>
        </section>
      ) : null}

      <div className="actions">
        <button type="submit" className={impact ? 'btn' : 'btn btn-primary'} disabled={busy || !!impact}>
          {busy ? 'Checking…' : isNew ? 'Create rule' : 'Save rule'}
        </button>
        <Link href="/rules" className="btn">
          Cancel
        </Link>
      </div>
    </form>
  );
}

/** True when `offset` is an ISO-8601 duration describeRule can read (any combination of units). */
function describable(offset: string): boolean {
  try {
    describeRule({ anchor: 'start', offset, audience: ['attendee'], channel: 'email', lateSendWindowSeconds: 0 });
    return true;
  } catch {
    return false;
  }
}

function AnchorSelect({ value, onChange }: { value: Anchor; onChange: (a: Anchor) => void }) {
  return (
    <label className="field">
      <span>Anchor</span>
      <select name="anchor" value={value} onChange={(e) => onChange(e.target.value as Anchor)}>
        {anchors.map((a) => (
          <option key={a} value={a}>
            {anchorLabels[a]}
          </option>
        ))}
      </select>
    </label>
  );
}
