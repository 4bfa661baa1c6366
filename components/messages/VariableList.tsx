'use client';

import type { MessageVariable } from '@/domain/messages/message-variables';

/**
 * The variables of this message kind (domain/messages/message-variables.ts), each with what it is. For an editor,
 * each is a button that inserts `{name}` at the caret of the field last written in (named: `targetLabel`); read-only,
 * a plain list.
 */
export function VariableList({
  variables,
  onInsert,
  readOnly,
  targetLabel,
}: {
  variables: readonly MessageVariable[];
  onInsert: (name: string) => void;
  readOnly: boolean;
  /** The field a click inserts into ("Body"). */
  targetLabel: string;
}) {
  return (
    <section className="text-variables" aria-labelledby="text-variables-title">
      <h2 id="text-variables-title" className="section-title">
        Variables
      </h2>
      <p className="small muted">{readOnly ? 'What this message can use.' : `Click one to put it into the ${targetLabel} where you were writing.`}</p>
      <ul>
        {variables.map((v) => (
          <li key={v.name} data-variable={v.name}>
            {readOnly ? (
              <code>{`{${v.name}}`}</code>
            ) : (
              <button type="button" className="btn btn-small variable-insert" onClick={() => onInsert(v.name)} aria-label={`Insert {${v.name}} into the ${targetLabel}: ${v.description}`}>
                <code>{`{${v.name}}`}</code>
              </button>
            )}{' '}
            <span className="small">{v.description}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
