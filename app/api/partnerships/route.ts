import { getDb } from '@/db/client';
import { partnershipStepAction, readAgreements, readGuestOrganisations, readPartnerships } from '@/server/organisations/partnerships';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * GET /api/partnerships — guest partnerships of the signed-in tenant (every role): `asGuest`, the organisations
 * that may book this tenant's people as guests, each `{ hostTenantId, hostName, limit, domains, version,
 * description, updatedBy, updatedAt }` (whom they may write to in this tenant's name, issue #12); `asHost`, the
 * organisations whose people this tenant may book, `{ name, slug, description }` (active partnerships only);
 * `agreements`, every partnership this tenant is a side of in any status (server/organisations/partnerships.ts AgreementView).
 */
export async function GET(request: Request) {
  return staffRoute(request, 'read', async (s) => ({
    asGuest: await readPartnerships(getDb(), s.tenant.id),
    asHost: await readGuestOrganisations(getDb(), s.tenant.id),
    agreements: await readAgreements(getDb(), s.tenant.id),
  }));
}

/**
 * POST /api/partnerships `{ step: 'propose' | 'accept' | 'decline' | 'end', org: '<slug>', side: 'host' | 'guest',
 * version? }` — admins: one step of a partnership both sides agree to (issue #13, server/organisations/partnerships.ts
 * partnershipStepAction). `side: 'host'` asks `org` to let us book its people; `side: 'guest'` lets `org` book ours.
 * 400/404/409 naming the field (`step`, `org`, `side`, `version`); stale version → 409 with `current`. Answers the
 * partnership as this organisation sees it.
 */
export async function POST(request: Request) {
  return staffRoute(request, 'configure', (s, body) => partnershipStepAction(getDb(), actionContext(s), body ?? {}));
}
