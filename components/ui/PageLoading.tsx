/**
 * The loading state of a list page while its data streams in. Only used by leaf list segments (audit,
 * suppressions, attention, templates): a loading boundary above a page that calls notFound() would stream a
 * 200 before the 404 is known, so pages addressed by id have none.
 */
export function PageLoading() {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="live-dot is-live" aria-hidden="true" /> Loading…
    </div>
  );
}
