/**
 * The error and notice lines under a form: the error as `<p className="form-error" role="alert">`, the notice as
 * `<p className="notice" role="status">`, each only when there is one. A server refusal `{ message, field }` reads
 * as "<Label>: message" (the message's own `field: ` prefix is replaced by the field's label from `labels`, when
 * given). `unlabelled` says how an error naming a field that `labels` has no label for reads: `'name'` (the
 * default) "<field>: message", `'plain'` the message as it is. Without `labels` the message is shown as it is.
 * `errorId`, when given, is the error line's `id`, for the inputs' `aria-describedby`.
 */
export function FormFeedback({
  error,
  notice,
  labels,
  unlabelled = 'name',
  errorId,
}: {
  error: { message: string; field?: string } | null;
  notice?: string | null;
  labels?: Record<string, string>;
  unlabelled?: 'name' | 'plain';
  errorId?: string;
}) {
  return (
    <>
      {error ? (
        <p className="form-error" role="alert" id={errorId}>
          {errorText(error, labels, unlabelled)}
        </p>
      ) : null}
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
    </>
  );
}

/** The error line's text (see FormFeedback). */
function errorText(error: { message: string; field?: string }, labels: Record<string, string> | undefined, unlabelled: 'name' | 'plain'): string {
  if (!labels || !error.field) return error.message;
  const own = labels[error.field];
  const label = unlabelled === 'name' ? (own ?? error.field) : own || undefined;
  return label === undefined ? error.message : `${label}: ${error.message.replace(/^[\w.]+: /, '')}`;
}
