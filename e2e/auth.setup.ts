/** Signs in once per demo account through the real form and saves each session for the specs. */
import fs from 'node:fs';
import path from 'node:path';
import { test as setup } from '@playwright/test';
import { authFile, signIn, type DemoRole } from './support';

for (const role of ['admin', 'staff', 'viewer', 'partner'] as DemoRole[]) {
  setup(`sign in as ${role}`, async ({ page }) => {
    await signIn(page, role);
    fs.mkdirSync(path.dirname(authFile(role)), { recursive: true });
    await page.context().storageState({ path: authFile(role) });
  });
}
