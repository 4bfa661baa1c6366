import { getDb } from '@/db/client';
import { loadBookingContext } from '@/db/queries/sending/delivery';
import { findSuppression } from '@/db/queries/suppressions/send-time';
import { isUuid } from '@/db/queries/scheduling/event-views';
import { nudgeOptOut } from '@/domain/notifications/preferences';
import { isTemplateId, parseTemplateData, renderReminderEmail } from '@/emails';
import { buildTemplateData } from '@/server/sending/send-checks';
import { senderFor } from '@/server/organisations/sender-identity';
import { jsonError, staffRoute } from '@/app/_http/session';
import { humanizeInstants } from '@/domain/staff-time';

export const dynamic = 'force-dynamic';

/**
 * GET /api/bookings/:id/preview?template=<id> — `{ subject, html, text, to, from, suppressed }`: the message
 * this participant would get now with that template, rendered from the current event data exactly as the
 * worker would (`from`: the sender whose name it would go out in — for an external guest, their organisation's
 * only where its partnership allows, issue #12); `suppressed` is the suppression-list entry that would stop it (`{ reason, source, since }`; for
 * another tenant's entry only its owner is named), or null; `optedOut` is the person's own refusal of reminders
 * by email that would end the nudge the same way (`{ reason, unsubscribedAt, zone }`: `reason` as the send path
 * words it, `unsubscribedAt` the ISO instant of a one-click unsubscribe or null for an opt-out on the preferences
 * page, `zone` the tenant's zone to show it in — domain/notifications/preferences.ts nudgeOptOut), or null.
 * 400 naming `template` for an unknown template; 422 naming the field when the event data cannot fill it.
 */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  const template = new URL(request.url).searchParams.get('template') ?? '';
  return staffRoute(request, 'read', async (s) => {
    if (!isTemplateId(template)) return jsonError(400, `template: unknown template "${template}"`, 'template');
    const ctx = isUuid(id) ? await loadBookingContext(getDb(), s.tenant.id, id) : null;
    if (!ctx) return jsonError(404, 'participant not found');
    const parsed = parseTemplateData(template, buildTemplateData(ctx));
    if (!parsed.ok) return jsonError(422, `the event's data cannot fill this template — ${parsed.message}`, parsed.field);
    const rendered = await renderReminderEmail(template, parsed.data);
    // The lists the send path checks: this tenant's, the sending tenant's and the guest organisation's (issue #12).
    const lists = [ctx.tenant, ctx.sendingTenant, ...(ctx.guestTenant ? [ctx.guestTenant] : [])];
    const hit = await findSuppression(getDb(), [...new Set(lists.map((t) => t.id))], ctx.contact.email, 'email');
    // Another tenant's entry (an external guest's own organisation) is named, never described.
    const suppressed = !hit
      ? null
      : hit.tenantId === s.tenant.id
        ? // The source may name an instant ("… on 2026-11-30T08:15:00.000Z"): staff read it in the event's zone (issue #12).
          { reason: hit.reason, source: humanizeInstants(hit.source, ctx.event.timeZone), since: hit.createdAt.toISOString() }
        : { reason: 'suppressed', source: `by the guest's own organisation (${(lists.find((t) => t.id === hit.tenantId) ?? ctx.sendingTenant).name})`, since: null };
    const refusal = nudgeOptOut(ctx.contact.preferences, 'email');
    const optedOut = refusal ? { ...refusal, zone: s.tenant.timeZone } : null;
    // The From it would go out with now: the deployment's address while the sender address is not verified.
    return { ...rendered, to: ctx.contact.email, from: senderFor(ctx.sendingTenant).from.address, suppressed, optedOut };
  });
}
