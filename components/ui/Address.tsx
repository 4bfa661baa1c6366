import { Fragment } from 'react';

/**
 * An address (email, phone number, webhook URL) that may wrap only where a reader expects it to: after the "@" of
 * an email address, after the "/" "?" "&" of a URL — never in the middle of a name ("ana.ber / nal@…" reads as two
 * things). A phone number never wraps. The cell holding it uses `overflow-wrap: break-word`, which breaks inside a
 * part only when that part alone is wider than the cell.
 */
export function Address({ value }: { value: string }) {
  if (/^\+\d+$/.test(value)) return <span className="nowrap">{value}</span>;
  const parts = value.split(/(?<=[@/?&])/);
  return (
    <>
      {parts.map((p, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {p}
        </Fragment>
      ))}
    </>
  );
}
