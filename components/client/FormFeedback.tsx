/**
 * The error and notice lines under a form. A server refusal `{ message, field }` reads as "<Label>: message"
 * (the message's own `field: ` prefix is replaced by the field's label from `labels`, when given).
 */
export function FormFeedback({
  error,
  notice,
  labels,
}: {
  error: { message: string; field?: string } | null;
  notice?: string | null;
  labels?: Record<string, string>;
}) {
  return (
    <>
      {error ? (
        <p className="form-error" role="alert">
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
