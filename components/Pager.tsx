import Link from 'next/link';

/** "Showing 1–50 of 120" with previous/next links that set `?page=` on `basePath` (pages start at 1). */
export function Pager({
  basePath,
  page,
  pageSize,
  total,
}: {
  basePath: string;
  page: number;
  pageSize: number;
  total: number;
}) {
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
          {hasPrev ? <Link href={`${basePath}?page=${page - 1}`}>← Previous</Link> : null}
          {hasNext ? <Link href={`${basePath}?page=${page + 1}`}>Next →</Link> : null}
        </span>
      ) : null}
    </nav>
  );
}
