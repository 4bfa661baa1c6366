/**
 * Which tenant the staff UI is looking at, until real authentication arrives: the slug in the
 * `punctual_tenant` cookie, else the `PUNCTUAL_TENANT` environment variable, else `demo`.
 * Only for request scope (route handlers, server components): it reads the request's cookies.
 */
import { cookies } from 'next/headers';
import type { DbOrTx } from '../db/client';
import { getTenantBySlug } from '../db/queries/scheduling';
import type { Tenant } from '../db/schema';

/** Name of the cookie that selects the tenant by slug. */
export const TENANT_COOKIE = 'punctual_tenant';

/** Slug used when neither the cookie nor the environment names one. */
export const DEFAULT_TENANT_SLUG = 'demo';

/** The slug to use: the first non-blank of cookie value, environment value, then `demo`. */
export function resolveTenantSlug(cookieValue: string | undefined | null, envValue: string | undefined | null): string {
  return cookieValue?.trim() || envValue?.trim() || DEFAULT_TENANT_SLUG;
}

/**
 * The tenant of the current request (see module doc for how the slug is chosen).
 * @returns null when no tenant has that slug (e.g. the demo was never seeded).
 */
export async function getCurrentTenant(db: DbOrTx): Promise<Tenant | null> {
  const jar = await cookies();
  const slug = resolveTenantSlug(jar.get(TENANT_COOKIE)?.value, process.env.PUNCTUAL_TENANT);
  return (await getTenantBySlug(db, slug)) ?? null;
}
