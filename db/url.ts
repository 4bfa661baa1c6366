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
import fs from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import type { PoolConfig } from 'pg';
import postgres from 'postgres';

/**
 * TLS to PostgreSQL, the same for every connection the app makes (issue #13 part 7): the web app's and worker's
 * postgres.js pools and drizzle's migrator ({@link connectPostgres}), and graphile-worker's `pg` pools (the worker's
 * queue, `runMigrations`; {@link pgPoolConfig}). Read from DATABASE_URL's libpq parameters (else the PGSSLMODE
 * environment variable), with libpq's meanings
 * (https://www.postgresql.org/docs/current/libpq-ssl.html#LIBPQ-SSL-PROTECTION):
 *
 *   (none), disable  no TLS
 *   require          TLS; the certificate is not checked (with sslrootcert=FILE: checked like verify-ca)
 *   verify-ca        TLS; the certificate must chain to sslrootcert=FILE (else to the system's CAs); any host name
 *   verify-full      TLS; chain as verify-ca AND the certificate must name the host in the URL
 *   sslrootcert=FILE the CA certificate(s), PEM; `system` = the system's CAs (then sslmode must be verify-full)
 *   sslcert=FILE, sslkey=FILE  a client certificate and its key, PEM
 *
 * `allow` and `prefer` (TLS when the server offers it, else plain text) are refused: `pg` cannot fall back, and
 * a deployment that names sslmode wants to know which one it gets.
 *
 * Why not leave the parameters to the drivers: they disagree. postgres.js takes `require` as TLS without checks but
 * `verify-ca` as `verify-full`, ignores sslrootcert/sslcert/sslkey (and sends them to the server as settings, which
 * it refuses), and falls back to plain text on `prefer`; `pg` 8 (pg-connection-string 2) takes `prefer`, `require`
 * and `verify-ca` all as verify-full (and warns). So the same DATABASE_URL could connect the web app and fail the
 * worker's queue, or the reverse. Here the parameters are removed from the URL and each driver gets explicit TLS
 * options. Either way a server that does not offer TLS is refused (never a silent plain-text connection).
 */
type SslMode = 'disable' | 'require' | 'verify-ca' | 'verify-full';

const SSL_PARAMS = ['sslmode', 'sslrootcert', 'sslcert', 'sslkey', 'uselibpqcompat'];

/**
 * The URL without its TLS parameters, the mode, and the TLS options both drivers take (false = no TLS).
 * @throws Error naming DATABASE_URL and the parameter when a mode is unknown or refused, or a file cannot be read.
 */
export function tlsFromUrl(url: string, env: Readonly<Record<string, string | undefined>> = process.env): { url: string; mode: SslMode | null; ssl: false | ConnectionOptions } {
  const u = new URL(url);
  const q = (k: string) => u.searchParams.get(k) ?? undefined;
  const raw = q('sslmode') ?? (env.PGSSLMODE?.trim() || undefined);
  const rootcert = q('sslrootcert');
  const cert = q('sslcert');
  const key = q('sslkey');
  for (const k of SSL_PARAMS) u.searchParams.delete(k);
  const plain = u.toString();
  if (raw === 'allow' || raw === 'prefer') {
    throw new Error(`DATABASE_URL: sslmode=${raw} (TLS only when the server offers it) is not supported: use sslmode=require or verify-full for TLS, or sslmode=disable`);
  }
  if (raw !== undefined && !['disable', 'require', 'verify-ca', 'verify-full'].includes(raw)) {
    throw new Error(`DATABASE_URL: sslmode=${raw} is not one of disable, require, verify-ca, verify-full`);
  }
  const mode = (raw ?? null) as SslMode | null;
  if (mode === null || mode === 'disable') {
    if (mode === null && (rootcert || cert || key)) throw new Error('DATABASE_URL: sslrootcert, sslcert and sslkey need an sslmode (require, verify-ca or verify-full)');
    return { url: plain, mode, ssl: false };
  }
  const read = (name: string, file: string) => {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch (e) {
      throw new Error(`DATABASE_URL: ${name}=${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
  };
  if (rootcert === 'system' && mode !== 'verify-full') throw new Error(`DATABASE_URL: sslrootcert=system needs sslmode=verify-full (found ${mode})`);
  const ca = rootcert && rootcert !== 'system' ? read('sslrootcert', rootcert) : undefined;
  const ssl: ConnectionOptions = {};
  if (ca) ssl.ca = ca;
  if (cert) ssl.cert = read('sslcert', cert);
  if (key) ssl.key = read('sslkey', key);
  const checkChain = mode !== 'require' || ca !== undefined;
  ssl.rejectUnauthorized = checkChain;
  // verify-ca (and require with a CA): the chain is checked, the host name is not.
  if (checkChain && mode !== 'verify-full') ssl.checkServerIdentity = () => undefined;
  return { url: plain, mode, ssl };
}

/**
 * A postgres.js client for `url` (see module doc: a `?host=/socket/dir` parameter is honoured like libpq does; TLS
 * parameters as {@link tlsFromUrl}). Connects lazily, on the first query.
 * @throws TypeError when `url` is not a URL; Error from {@link tlsFromUrl}.
 */
export function connectPostgres(url: string, options: postgres.Options<{}> = {}): postgres.Sql {
  const tls = tlsFromUrl(url);
  const u = new URL(tls.url);
  const dir = u.searchParams.get('host');
  const sslOption = { ssl: tls.ssl === false ? false : { ...tls.ssl } };
  if (!dir || !dir.startsWith('/')) return postgres(tls.url, { ...options, ...sslOption });
  u.searchParams.delete('host');
  return postgres(u.toString(), { ...options, ...sslOption, host: dir });
}

/**
 * `pg` pool settings for `url` with the same TLS as {@link connectPostgres} (graphile-worker's queue and migrations).
 * @throws Error from {@link tlsFromUrl}.
 */
export function pgPoolConfig(url: string, extra: PoolConfig = {}): PoolConfig {
  const tls = tlsFromUrl(url);
  return { ...extra, connectionString: tls.url, ssl: tls.ssl === false ? false : { ...tls.ssl } };
}

/**
 * A person's sentence for a failed connection: when DATABASE_URL asks for TLS and the server did not take it, says
 * so (postgres.js reports only "Client network socket disconnected before secure TLS connection was established"),
 * else the error's own message.
 */
export function describeConnectionError(e: unknown, url: string): string {
  const message = e instanceof Error ? e.message : String(e);
  let mode: SslMode | null = null;
  try {
    mode = tlsFromUrl(url).mode;
  } catch {
    return message;
  }
  if (mode && mode !== 'disable' && /before secure TLS connection was established|does not support SSL/i.test(message)) {
    return `the database server does not accept TLS connections, and DATABASE_URL asks for sslmode=${mode} (${message})`;
  }
  return message;
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
