'use client';

import type { OffsetDirection, OffsetUnit } from '@/domain/rules/rule-offset';
import { anchors, type Anchor } from '@/domain/vocabulary';
import { anchorLabels, directionLabels, unitLabels } from './rule-fields';
import type { RuleFormState } from './useRuleForm';

/**
 * The rule editor's "When" fieldset: the offset as amount + unit + before/after (or, switched to text, as an
 * ISO-8601 duration), the anchor, what "days" and "hours" mean, the offset as it will be stored, and the switch
 * between the two ways of writing it.
 */
export function RuleWhenFields({ form }: { form: RuleFormState }) {
  const { error, errorId, mark, offset, chooseIsoMode } = form;
  const { anchor, isoMode, isoOffset, amount, unit, direction } = form.fields;
  const { setAnchor, setIsoOffset, setAmount, setUnit, setDirection } = form.set;
  return (
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
        <input type="checkbox" checked={isoMode} onChange={(e) => chooseIsoMode(e.target.checked)} />{' '}
        Write the offset as ISO-8601 text (for an offset such as -P1DT2H)
      </label>
    </fieldset>
  );
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
