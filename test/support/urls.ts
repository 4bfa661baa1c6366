/** `serverUrl` with its database name replaced by `name`. */
export function databaseUrl(serverUrl: string, name: string): string {
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return u.toString();
}
