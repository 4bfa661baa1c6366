/**
 * The error and notice lines under a form. A server refusal `{ message, field }` reads as "<Label>: message"
 * (the message's own `field: ` prefix is replaced by the field's label from `labels`, when given).
 * `errorId`, when given, is the error line's `id`, for the inputs' `aria-describedby`.
 */
export function FormFeedback({
  error,
  notice,
  labels,
  errorId,
}: {
  error: { message: string; field?: string } | null;
  notice?: string | null;
  labels?: Record<string, string>;
  errorId?: string;
}) {
  return (
    <>
      {error ? (
        <p className="form-error" role="alert" id={errorId}>
          {labels && error.field ? `${labels[error.field] ?? error.field}: ${error.message.replace(/^[\w.]+: /, '')}` : error.message}
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
