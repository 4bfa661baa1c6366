/** The step `npm start` names in its build progress lines (scripts/lib.ts `buildPhase`), from `next build` 16 output. */
import { describe, expect, it } from 'vitest';
import { buildPhase } from '@/scripts/lib';

describe('buildPhase', () => {
  it.each([
    ['   Creating an optimized production build ...', 'Creating an optimized production build'],
    [' \u001b[32m✓\u001b[39m Compiled successfully in 68s', 'Compiled successfully in 68s'],
    ['  Collecting page data using 1 worker ...', 'Collecting page data using 1 worker'],
    ['✓ Generating static pages using 1 worker (2/2) in 1615ms', 'Generating static pages using 1 worker (2/2) in 1615ms'],
    ['  Finalizing page optimization ...', 'Finalizing page optimization'],
  ])('%j → %j', (line, phase) => expect(buildPhase(line)).toBe(phase));

  it.each(['▲ Next.js 16.4.6 (Turbopack)', 'Route (app)', '├ ○ /mailbox', '', '○  (Static)  prerendered as static content'])('%j is not a step', (line) => {
    expect(buildPhase(line)).toBeNull();
  });
});
