/**
 * No lost updates (issue 8 §3, invariant 11), as two people do it in two browsers: staff A opens an event's
 * edit form; admin B moves the event from 15 to 16 June and changes its room; A then changes only the title
 * and saves. A gets the conflict panel (who, when, what changed), nothing of A's is written, A's title stays
 * in the form, and "Apply my changes to the latest version" saves A's title on top of B's date and room.
 * Also the JSON API: a missing version is a 400 naming it, and `If-Match` works like the `version` field.
 * Screenshots: conflict-panel-desktop, conflict-panel-375, conflict-applied.
 */
import { type Page } from '@playwright/test';
import { expect, expectAccessible, sameOrigin, screen, test, unique } from './support';

interface Timeline {
  event: { title: string; location: string | null; startsAt: string; scheduleVersion: number; version: number };
}

async function timeline(page: Page, eventId: string): Promise<Timeline['event']> {
  const res = await page.request.get(`/api/events/${eventId}/timeline`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as Timeline).event;
}

test('A’s stale save shows what B changed, writes nothing, and A’s title is applied on top of B’s date and room', async ({ browser, contextAs }) => {
  const a = await contextAs('staff'); // Sam Staff
  const b = await contextAs('admin'); // Ada Admin
  try {
    const pageA = await a.newPage();
    const pageB = await b.newPage();
    const title = unique('Pottery');
    const created = await pageA.request.post('/api/events', {
      headers: sameOrigin(),
      data: { title, location: 'Room A', timeZone: 'Europe/Amsterdam', allDay: false, start: '2027-06-15T10:00', end: '2027-06-15T11:00' },
    });
    expect(created.status(), await created.text()).toBe(200);
    const { id } = (await created.json()) as { id: string };

    // A opens the edit form.
    await pageA.goto(`/events/${id}/edit`);
    await expect(pageA.getByLabel('Starts (local time)')).toHaveValue('2027-06-15T10:00');

    // B moves the event to 16 June and changes the room.
    await pageB.goto(`/events/${id}/edit`);
    await pageB.getByLabel('Starts (local time)').fill('2027-06-16T10:00');
    await pageB.getByLabel('Ends (local time)').fill('2027-06-16T11:00');
    await pageB.getByLabel('Location (optional)').fill('Room B');
    await pageB.getByRole('button', { name: 'Save changes' }).click();
    await pageB.getByRole('dialog', { name: 'Reschedule this event?' }).getByRole('button', { name: 'Reschedule' }).click();
    await expect(pageB).toHaveURL(/saved=rescheduled/);
    const afterB = await timeline(pageA, id);
    expect(afterB).toMatchObject({ title, location: 'Room B', startsAt: '2027-06-16T08:00:00.000Z', scheduleVersion: 2 });

    // A changes only the title and saves with the version A opened.
    const mine = `${title} for beginners`;
    await pageA.getByLabel('Title').fill(mine);
    await pageA.getByRole('button', { name: 'Save changes' }).click();
    const panel = pageA.getByTestId('conflict-panel');
    await expect(panel).toBeVisible();
    await expect(panel).toContainText(/This event was changed by Ada Admin at \w{3} \d{1,2} \w{3} \d{4}, \d{2}:\d{2} CES?T since you opened it\./);
    const lines = panel.locator('.conflict-changes li');
    await expect(lines).toHaveText([/^Start: Tue 15 Jun 10:00 → Wed 16 Jun 10:00$/, /^End: Tue 15 Jun 11:00 → Wed 16 Jun 11:00$/, /^Location: Room A → Room B$/]);
    await expect(pageA).toHaveURL(new RegExp(`/events/${id}/edit$`));
    // Nothing was written, and A's own edit is still in the form.
    expect(await timeline(pageA, id)).toEqual(afterB);
    await expect(pageA.getByLabel('Title')).toHaveValue(mine);
    await expect(pageA.getByLabel('Starts (local time)')).toHaveValue('2027-06-15T10:00');
    await expectAccessible(pageA, 'conflict panel');
    await screen(pageA, 'conflict-panel-desktop');
    await pageA.setViewportSize({ width: 375, height: 812 });
    await expect(panel).toBeVisible();
    expect(await pageA.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screen(pageA, 'conflict-panel-375');
    await pageA.setViewportSize({ width: 1360, height: 900 });

    // Apply my changes to the latest version: B's date and room, A's title; saving is not a reschedule.
    await panel.getByRole('button', { name: 'Apply my changes to the latest version' }).click();
    await expect(panel).toHaveCount(0);
    await expect(pageA.getByLabel('Title')).toHaveValue(mine);
    await expect(pageA.getByLabel('Starts (local time)')).toHaveValue('2027-06-16T10:00');
    await expect(pageA.getByLabel('Ends (local time)')).toHaveValue('2027-06-16T11:00');
    await expect(pageA.getByLabel('Location (optional)')).toHaveValue('Room B');
    await expect(pageA.getByRole('status')).toContainText('Your changes are now on top of the latest version');
    await screen(pageA, 'conflict-applied');
    await pageA.getByRole('button', { name: 'Save changes' }).click();
    await expect(pageA).toHaveURL(/saved=updated/);
    expect(await timeline(pageA, id)).toMatchObject({ title: mine, location: 'Room B', startsAt: '2027-06-16T08:00:00.000Z', scheduleVersion: 2 });
  } finally {
    await a.close();
    await b.close();
  }
});

test('the API: a missing version is a 400 naming it; If-Match carries it; a stale one is a 409 with the current record', async ({ page }) => {
  const created = await page.request.post('/api/events', {
    headers: sameOrigin(),
    data: { title: unique('Versioned'), timeZone: 'UTC', allDay: false, start: '2031-01-10T10:00', end: '2031-01-10T11:00' },
  });
  const { id } = (await created.json()) as { id: string };
  const form = { title: 'Renamed', timeZone: 'UTC', allDay: false, start: '2031-01-10T10:00', end: '2031-01-10T11:00' };

  const missing = await page.request.put(`/api/events/${id}`, { headers: sameOrigin(), data: form });
  expect(missing.status()).toBe(400);
  expect(await missing.json()).toMatchObject({ field: 'version', error: expect.stringMatching(/^version: required/) });

  const ok = await page.request.put(`/api/events/${id}`, { headers: { ...sameOrigin(), 'if-match': '"1"' }, data: form });
  expect(ok.status(), await ok.text()).toBe(200);
  expect(await ok.json()).toMatchObject({ version: 2, rescheduled: false });

  const stale = await page.request.put(`/api/events/${id}`, { headers: { ...sameOrigin(), 'if-match': '"1"' }, data: { ...form, title: 'Renamed again' } });
  expect(stale.status()).toBe(409);
  expect(await stale.json()).toMatchObject({
    field: 'version',
    error: expect.stringMatching(/^This event was changed by Sam Staff at .+ UTC since you opened it\.$/),
    version: 2,
    current: { title: 'Renamed', version: 2, start: '2031-01-10T10:00' },
  });
  expect((await timeline(page, id)).title).toBe('Renamed');

  const malformed = await page.request.put(`/api/events/${id}`, { headers: { ...sameOrigin(), 'if-match': '*' }, data: form });
  expect(malformed.status()).toBe(400);
  expect(await malformed.json()).toMatchObject({ field: 'version' });
});

const HOST_RULE = { name: 'Host heads-up', anchor: 'start', offset: '-PT15M', audience: ['host'], channel: 'email', template: 'host-reminder', lateSendWindowSeconds: 1800, active: true };

/** PUT a rule as `page`'s account, learning the current version from a 409 first (the answer carries it). */
async function putRule(page: Page, ruleId: string, data: Record<string, unknown>): Promise<void> {
  let res = await page.request.put(`/api/rules/${ruleId}`, { headers: sameOrigin(), data: { ...data, version: 1 } });
  if (res.status() === 409) {
    const { version } = (await res.json()) as { version: number };
    res = await page.request.put(`/api/rules/${ruleId}`, { headers: sameOrigin(), data: { ...data, version } });
  }
  expect(res.status(), await res.text()).toBe(200);
}

test('the rule form: a stale save lists what changed and applies the admin’s name on top of the newer late-send window', async ({ browser, contextAs }) => {
  const admin = await contextAs('admin');
  let ruleId: string | null = null;
  try {
    const page = await admin.newPage();
    await page.goto('/rules');
    ruleId = await page.locator('table.rules-table tbody tr', { hasText: HOST_RULE.name }).getAttribute('data-rule-id');
    await page.goto(`/rules/${ruleId}`);
    await expect(page.getByLabel('Late-send window (minutes)')).toHaveValue('30');

    // Meanwhile (another tab) the late-send window becomes 20 minutes.
    await putRule(page, ruleId!, { ...HOST_RULE, lateSendWindowSeconds: 1200 });

    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Host heads-up (quarter hour)');
    await page.getByRole('button', { name: 'Save rule' }).click();
    const panel = page.getByTestId('conflict-panel');
    await expect(panel).toContainText(/This rule was changed by Ada Admin at .+ since you opened it\./);
    await expect(panel.locator('.conflict-changes li')).toHaveText(['Late-send window: 30 minutes → 20 minutes']);
    await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Host heads-up (quarter hour)');
    await expect(page).toHaveURL(new RegExp(`/rules/${ruleId}$`));
    await page.setViewportSize({ width: 375, height: 812 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screen(page, 'conflict-rule-375');
    await page.setViewportSize({ width: 1360, height: 900 });

    await panel.getByRole('button', { name: 'Apply my changes to the latest version' }).click();
    await expect(page.getByLabel('Late-send window (minutes)')).toHaveValue('20');
    await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Host heads-up (quarter hour)');
    await page.getByRole('button', { name: 'Save rule' }).click();
    await expect(page).toHaveURL(/\/rules\?saved=/);
    await expect(page.locator('table.rules-table tbody tr', { hasText: 'Host heads-up (quarter hour)' })).toContainText('skipped if more than 20 minutes late');
  } finally {
    if (ruleId) await putRule(await admin.newPage(), ruleId, HOST_RULE);
    await admin.close();
  }
});
