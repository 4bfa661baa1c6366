import { getDb } from '../../../db/client';
import { readGuestOrganisations, readPartnerships } from '../../../server/partnerships';
import { staffRoute } from '../../../server/session';

export const dynamic = 'force-dynamic';

/**
 * GET /api/partnerships — guest partnerships of the signed-in tenant (every role): `asGuest`, the organisations
 * that may book this tenant's people as guests, each `{ hostTenantId, hostName, limit, domains, version,
 * description, updatedBy, updatedAt }` (whom they may write to in this tenant's name, issue #12); `asHost`, the
 * organisations whose people this tenant may book, `{ name, slug, description }`.
 */
export async function GET(request: Request) {
  return staffRoute(request, 'read', async (s) => ({
    asGuest: await readPartnerships(getDb(), s.tenant.id),
    asHost: await readGuestOrganisations(getDb(), s.tenant.id),
  }));
}
