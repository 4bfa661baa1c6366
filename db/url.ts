/**
 * PostgreSQL connection URLs that name a Unix-socket directory, for every client the app uses.
 *
 * libpq (psql), `pg` (graphile-worker) and `pg-connection-string` read a socket directory from the URL's `host`
 * query parameter: `postgres://user:pw@localhost:5432/db?host=%2Fpath%2Fto%2Fdir` connects to
 * `/path/to/dir/.s.PGSQL.5432` (https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-CONNSTRING-URIS).
 * postgres.js does not: it would send `host` to the server as a run-time setting, which the server refuses. Every
 * postgres.js client that may be handed such a URL is made with {@link connectPostgres} (db/client.ts `createDb`, the
 * embedded server's own set-up connections, tests reading the e2e server's database), which moves the directory into
 * postgres.js' `host` option.
 */
import postgres from 'postgres';

/**
 * A postgres.js client for `url` (see module doc: a `?host=/socket/dir` parameter is honoured like libpq does).
 * Connects lazily, on the first query.
 * @throws TypeError when `url` is not a URL.
 */
export function connectPostgres(url: string, options: postgres.Options<{}> = {}): postgres.Sql {
  const u = new URL(url);
  const dir = u.searchParams.get('host');
  if (!dir || !dir.startsWith('/')) return postgres(url, options);
  u.searchParams.delete('host');
  return postgres(u.toString(), { ...options, host: dir });
}

/**
 * A `postgres://` URL for `user`/`password` on database `database`, over the Unix socket in `socketDir` when given
 * (libpq form, see module doc; the port names the socket file), else over TCP to 127.0.0.1:`port`.
 */
export function connectionUrl(opts: { user: string; password: string; database: string; port: number; socketDir: string | null }): string {
  const auth = `${encodeURIComponent(opts.user)}:${encodeURIComponent(opts.password)}`;
  const db = encodeURIComponent(opts.database);
  return opts.socketDir
    ? `postgres://${auth}@localhost:${opts.port}/${db}?host=${encodeURIComponent(opts.socketDir)}`
    : `postgres://${auth}@127.0.0.1:${opts.port}/${db}`;
}

/** `url` with the password replaced by `***`, for logs. */
export function redactedUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparsable URL)';
  }
}
