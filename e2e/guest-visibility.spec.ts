/**
 * Issue #12, mail sent in a guest organisation's name: the spec's own organisation (e2e/tenants.ts: Partner
 * Collective lets it book guests, as it lets the demo studio) books a person as an external guest of
 * Partner Collective and nudges them; Partner's admin sees that message in its own deliveries log (who of the host
 * sent what to whom) and audit log, and on its settings page limits the partnership to a domain — after which
 * the host is told a guest outside it is written to in its own name (partnerships are on the settings page since issue #13). The limit is put back to "anyone" at the
 * end (this partnership is the spec's own). Screenshots: guest-deliveries-partner(-375), guest-audit-partner,
 * guest-partnerships-partner(-375), guest-partnerships-host.
 */
import { type Page } from '@playwright/test';
import { createEventViaApi, expect, expectAccessible, sameOrigin, screen, test, unique } from './support';

async function bothWidths(page: Page, name: string) {
  await screen(page, name);
  await page.setViewportSize({ width: 375, height: 812 });
  await screen(page, `${name}-375`);
  await page.setViewportSize({ width: 1360, height: 900 });
}

test.use({ role: 'admin' });

test('the partner admin sees a message the demo studio sent in its name, in its deliveries and audit log, and limits it', async ({ page, browser, contextAs, tenant }) => {
  const eventId = await createEventViaApi(page, unique('Joint workshop'));
  const email = `${unique('grace')}@partner.punctual.local`;
  const booked = await page.request.post(`/api/events/${eventId}/bookings`, { headers: sameOrigin(), data: { name: 'Grace Guest', email, role: 'external', guestTenant: 'partner' } });
  expect(booked.status(), await booked.text()).toBe(200);
  const { id: bookingId, sendsAs } = (await booked.json()) as { id: string; sendsAs: string };
  expect(sendsAs).toBe('in Partner Collective’s name');
  const nudge = await page.request.post(`/api/bookings/${bookingId}/nudge`, { headers: sameOrigin(), data: { template: 'attendee-reminder', idempotencyKey: unique('guest-nudge') } });
  expect(nudge.status(), await nudge.text()).toBe(200);

  const partner = await contextAs('partner');
  const p = await partner.newPage();
  try {
    // Its deliveries log: the nudge, sent in its name by the demo studio's admin.
    const row = p.locator('table.deliveries-table tbody tr', { hasText: email }).filter({ hasText: 'Manual reminder' });
    await expect
      .poll(async () => {
        await p.goto(`/deliveries?q=${encodeURIComponent(email)}`);
        return row.count();
      }, { timeout: 30_000 })
      .toBe(1);
    await expect(row).toHaveAttribute('data-sent-by', tenant.name);
    await expect(row.getByTestId('sent-by')).toHaveText(`Sent in your name by ${tenant.name} (${tenant.accounts.admin})`);
    await expect(row.getByRole('link')).toHaveCount(0); // the host's delivery and event pages are not Partner's
    // The page is rendered once: read it again until the send has finished (it may still be `sending` on first load).
    await expect
      .poll(async () => {
        await p.goto(`/deliveries?q=${encodeURIComponent(email)}`);
        return row.locator('td[data-label="Status"]').innerText();
      }, { timeout: 30_000 })
      .toMatch(/accepted|delivered/);
    await expectAccessible(p, 'deliveries (partner)');
    await bothWidths(p, 'guest-deliveries-partner');

    // Its audit log: who (host actor and host), what, to whom.
    await p.goto('/audit?action=guest_message');
    // The booking's own confirmation to the guest is also sent in the partner's name, and may be sent before or after
    // the nudge: the nudge's entry is the one naming the manual reminder.
    const entry = p.locator('table.audit-table tbody tr', { hasText: email }).filter({ hasText: 'message: Manual reminder' }).first();
    await expect(entry.locator('td[data-label="Who"]')).toHaveText(`${tenant.accounts.admin} (${tenant.name})`);
    await expect(entry.locator('td[data-label="Action"]')).toHaveText('Sent in your name by a partner');
    await expect(entry.locator('td[data-label="Details"]')).toContainText('message: Manual reminder');
    await screen(p, 'guest-audit-partner');

    // Its settings page (the partnerships moved there from the staff page, issue #13): the partnership and its
    // limit; an admin narrows it to its own domain.
    await p.goto('/settings');
    const card = p.locator(`li.partnership[data-partner="${tenant.name}"]`);
    await expect(card.getByRole('radio', { name: 'Anyone they book as our guest' })).toBeChecked();
    await card.getByRole('radio', { name: 'Only addresses at these domains' }).check();
    await card.getByLabel('Domains (required)').fill('partner.punctual.local');
    await card.getByRole('button', { name: 'Save' }).click();
    await expect(card.getByRole('status')).toHaveText(`Saved: ${tenant.name} may write in our name to only addresses at partner.punctual.local.`);
    await expectAccessible(p, 'settings page with partnerships (partner)');
    await bothWidths(p, 'guest-partnerships-partner');

    // The demo studio is told at once: a guest outside that domain is written to in its own name.
    const outside = await page.request.post(`/api/events/${eventId}/bookings`, { headers: sameOrigin(), data: { name: 'Otto Outside', email: `${unique('otto')}@example.test`, role: 'external', guestTenant: 'partner' } });
    expect(((await outside.json()) as { sendsAs: string }).sendsAs).toBe('in your own name: Partner Collective lets you write in its name only to addresses at the domains it listed');
    // … and its settings page names the limit, read-only.
    await page.goto('/settings');
    await expect(page.locator('.partnership-host-list')).toContainText('Partner Collective: messages go out in their name to only addresses at partner.punctual.local; to anyone else in your own name.');
    await screen(page, 'guest-partnerships-host');
  } finally {
    // Put the partnership back as the seed made it (e2e/tenants.ts).
    const list = (await (await p.request.get('/api/partnerships')).json()) as { asGuest: { hostTenantId: string; hostName: string; version: number }[] };
    const demo = list.asGuest.find((x) => x.hostTenantId === tenant.id)!;
    const reset = await p.request.put(`/api/partnerships/${demo.hostTenantId}`, { headers: sameOrigin(), data: { limit: 'anyone', version: demo.version } });
    expect(reset.status(), await reset.text()).toBe(200);
    await partner.close();
  }
});
