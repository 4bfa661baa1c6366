'use client';

import { useState } from 'react';
import { suggestZone } from '@/domain/zones';

/**
 * A time zone text field offering the current tz database names (`zones`, from domain/zones.ts) as a
 * datalist. When what is typed is not one of those names but names a zone we can guess — a city ("Kyiv"),
 * an old alias ("Europe/Kiev"), any letter case — a line under the field suggests the current name with a
 * button that puts it in the field. The form submits the field as typed (`name`), so an accepted old
 * alias is stored as given.
 */
export function ZoneInput({
  name,
  zones,
  defaultValue = '',
  placeholder,
  required = false,
  invalid,
  hint,
  listId = 'iana-zones',
}: {
  name: string;
  zones: readonly string[];
  defaultValue?: string;
  placeholder?: string;
  required?: boolean;
  invalid?: boolean;
  /** Help text shown when there is no suggestion. */
  hint?: string;
  listId?: string;
}) {
  const [value, setValue] = useState(defaultValue);
  const typed = value.trim();
  const suggestion = typed && !zones.includes(typed) ? suggestZone(typed) : null;
  const hintId = `${listId}-${name}-hint`;
  return (
    <>
      <input
        name={name}
        list={listId}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        placeholder={placeholder}
        required={required}
        autoComplete="off"
        spellCheck={false}
        aria-invalid={invalid}
        aria-describedby={hintId}
      />
      {suggestion && suggestion !== typed ? (
        <span id={hintId} className="field-hint zone-suggestion" role="status">
          <span>
            Did you mean <strong>{suggestion}</strong>?
          </span>
          <button type="button" className="btn btn-small" onClick={() => setValue(suggestion)}>
            Use {suggestion}
          </button>
        </span>
      ) : hint ? (
        <span id={hintId} className="field-hint">
          {hint}
        </span>
      ) : null}
      <datalist id={listId}>
        {zones.map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
    </>
  );
}
