import Link from 'next/link';

/** "Showing 1–50 of 120" with previous/next links that set `?page=` on `basePath` (pages start at 1). */
export function Pager({
  basePath,
  page,
  pageSize,
  total,
  params = {},
}: {
  basePath: string;
  page: number;
  pageSize: number;
  total: number;
  /** Other query parameters to keep (filters). */
  params?: Record<string, string>;
}) {
  const href = (p: number) => `${basePath}?${new URLSearchParams({ ...params, page: String(p) }).toString()}`;
  if (total === 0) return null;
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  const hasPrev = page > 1;
  const hasNext = last < total;
  return (
    <nav className="pager" aria-label="Pagination">
      <span>
        Showing {first}–{last} of {total}
      </span>
      {hasPrev || hasNext ? (
        <span className="pager-links">
          {hasPrev ? <Link href={href(page - 1)}>← Previous</Link> : null}
          {hasNext ? <Link href={href(page + 1)}>Next →</Link> : null}
        </span>
      ) : null}
    </nav>
  );
}
