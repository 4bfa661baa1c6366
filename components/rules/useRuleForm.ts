'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { describeRule } from '@/domain/rules/describe-rule';
import { describeChanges, mergeEdits, onTopNotice, type FieldChange } from '@/domain/platform/edit-conflict';
import { offsetToParts, partsToOffset, OffsetPartsError, type OffsetDirection, type OffsetUnit } from '@/domain/rules/rule-offset';
import { bookingRoles, type Anchor, type BookingRole, type Channel, type TemplateId } from '@/domain/vocabulary';
import type { RuleImpactCounts } from '@/domain/rules/rule-impact';
import { ApiError, apiCall, newIdempotencyKey } from '@/components/ui/api';
import { staleSave } from '@/components/events/ConflictPanel';
import { describable, fieldLabels, MAX_WINDOW_MINUTES, PLANNING_FIELDS, ruleChangeFields, ruleFields, type Field, type RuleFields, type RuleFormValue } from './rule-fields';

/** The form's state and actions, as RuleForm and its parts read them. */
export type RuleFormState = ReturnType<typeof useRuleForm>;

/**
 * The state and submit logic of the reminder-rule editor (components/rules/RuleForm.tsx): the fields (the offset as
 * amount + unit + direction, or as ISO-8601 text), the offset they describe or the problem with them, the live
 * sentence, the impact preview (POST /api/rules/impact) and the save (POST /api/rules with an Idempotency-Key, or
 * PUT /api/rules/:id with the version the form is based on), then back to /rules. A stale version becomes
 * `conflict` (ConflictPanel); any other refusal becomes `error`, naming its field. Any edit clears the error and
 * the preview.
 */
export function useRuleForm(rule: RuleFormValue, templateTitles: Record<TemplateId, string>) {
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
  const [onlyUnconfirmed, setOnlyUnconfirmed] = useState(rule.onlyUnconfirmed);
  const [error, setError] = useState<{ message: string; field?: Field } | null>(null);
  const [busy, setBusy] = useState(false);
  /** The server's preview of what saving these values would do to pending reminders (cleared by any edit). */
  const [impact, setImpact] = useState<(RuleImpactCounts & { lines: string[] }) | null>(null);
  const [idempotencyKey] = useState(newIdempotencyKey);
  // A refusal or a preview is about the values it was given: any edit clears it (the next save checks again).
  useEffect(() => {
    setError(null);
    setImpact(null);
  }, [name, anchor, isoMode, isoOffset, amount, unit, direction, audience, channel, template, windowMinutes, active, onlyUnconfirmed]);
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

  const changeFields = ruleChangeFields(templateTitles);

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
      onlyUnconfirmed,
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
    setOnlyUnconfirmed(next.onlyUnconfirmed);
    setConflict(null);
    setNotice(message);
  }

  /** The conflict panel's "apply": this person's changes on top of the latest rule. */
  function applyMine() {
    if (!conflict) return;
    const r = mergeEdits(base.fields, mine(), ruleFields(conflict.latest));
    const kept = r.overlapping.map((k) => changeFields.find((f) => f.key === k)?.label ?? k);
    adopt(r.merged, conflict.latest, onTopNotice(kept, 'the rule'));
  }

  /** The conflict panel's "discard": the latest rule, as it is. */
  function discardMine() {
    if (!conflict) return;
    adopt(ruleFields(conflict.latest), conflict.latest, 'The form now shows the latest version.');
  }

  /**
   * The "write the offset as ISO-8601 text" switch: on, the ISO text takes the offset the fields describe; off, the
   * text is read back into amount + unit + direction, or (an offset that mixes units) an error says it cannot be.
   */
  function chooseIsoMode(checked: boolean) {
    if (checked) {
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
      onlyUnconfirmed,
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
  /** `aria-invalid` and `aria-describedby` (the error line) for an input when the error names one of `fields`. */
  const mark = (...fields: Field[]) => (error?.field && fields.includes(error.field) ? { 'aria-invalid': true as const, 'aria-describedby': errorId } : {});

  return {
    id,
    isNew,
    conflict,
    notice,
    error,
    busy,
    impact,
    deactivating,
    errorId,
    mark,
    offset,
    sentence,
    fields: { name, anchor, isoMode, isoOffset, amount, unit, direction, audience, channel, template, windowMinutes, active, onlyUnconfirmed },
    set: { setName, setAnchor, setIsoOffset, setAmount, setUnit, setDirection, setAudience, setTemplate, setWindowMinutes, setActive, setOnlyUnconfirmed },
    chooseIsoMode,
    applyMine,
    discardMine,
    onSubmit,
    save,
  };
}
