/** Shown while a staff page's data loads (server components stream in behind it). */
export default function Loading() {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="live-dot is-live" aria-hidden="true" /> Loading…
    </div>
  );
}
