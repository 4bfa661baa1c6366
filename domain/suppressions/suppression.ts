/**
 * How a suppression is described to the tenant whose delivery it stopped (pure). An entry on the tenant's
 * own list is described in full (reason, where it came from, since when); an entry on ANOTHER tenant's list
 * (an external guest's own organisation, invariant 9) is described only as "suppressed by <that
 * organisation>": its reason, notes and staff are that tenant's private data.
 */
export function describeSuppression(
  s: { tenantId: string; reason: string; source: string; createdAt: Date },
  viewerTenantId: string,
  ownerName: string,
): string {
  if (s.tenantId !== viewerTenantId) return `address suppressed by the guest's own organisation (${ownerName})`;
  return `address suppressed (${s.reason}, ${s.source}) since ${s.createdAt.toISOString()}`;
}
