/**
 * The rules of the house (test/support/layers.ts): the real tree keeps them, and each rule catches a planted
 * violation — so the check cannot pass by looking at nothing.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLayers, readSourceTree } from '@/test/support/layers';

const root = path.resolve(import.meta.dirname, '..', '..');

describe('the layers of the real tree', () => {
  it('domain is pure and imports only itself; db, components, dev and app are imported only as allowed; no cycles', () => {
    const files = readSourceTree(root);
    expect(files.size).toBeGreaterThan(300);
    expect(checkLayers(files)).toEqual([]);
  });
});

describe('each rule fails on a planted violation', () => {
  const ok = new Map([
    ['domain/a.ts', "import { z } from 'zod';\nimport { b } from './b';\nexport const a = () => b(new Date(0));\n"],
    ['domain/b.ts', '/** Not a read: process.env is named in a comment. */\nexport const b = (d: Date) => d;\n'],
    ['db/q.ts', "import type { X } from '../domain/a';\nimport { a } from '@/domain/a';\n"],
    ['server/s.ts', "import { a } from '../domain/a';\nimport '../db/q';\n"],
    ['components/C.tsx', "import type { S } from '../server/s';\nimport type { Q } from '@/db/q';\n"],
    ['app/page.tsx', "import { s } from '../server/s';\nimport { C } from '@/components/C';\n"],
    ['app/api/mailbox/route.ts', "import { m } from '../../../dev/mail';\n"],
    ['dev/mail.ts', "import { s } from '../server/s';\n"],
    ['scripts/start.ts', "import { m } from '../dev/mail';\n"],
    ['test/x.test.ts', "import { GET } from '../app/api/mailbox/route';\nimport { m } from '../dev/mail';\n"],
  ]);
  const plant = (file: string, text: string) => checkLayers(new Map([...ok, [file, text]]));

  it('the clean tree has no violation', () => {
    expect(checkLayers(ok)).toEqual([]);
  });
  it.each([
    ['domain imports server', 'domain/c.ts', "import { s } from '../server/s';\n", /domain imports only domain: server\/s\.ts/],
    ['domain imports db by alias', 'domain/c.ts', "import { q } from '@/db/q';\n", /domain imports only domain: db\/q\.ts/],
    ['domain reads the environment', 'domain/c.ts', 'export const x = process.env.X;\n', /domain is pure: reads the environment/],
    ['domain reads the clock', 'domain/c.ts', 'export const now = () => Date.now();\n', /domain is pure: reads the clock \(Date\.now\(\)\)/],
    ['domain makes the current date', 'domain/c.ts', 'export const now = () => new Date();\n', /domain is pure: reads the clock \(new Date\(\)\)/],
    ['db imports server', 'db/r.ts', "import { s } from '../server/s';\n", /db never imports server\//],
    ['db imports app', 'db/r.ts', "import x from '../app/page';\n", /db never imports app\//],
    ['components import server at run time', 'components/D.tsx', "import { s } from '../server/s';\n", /components import server\/ only as types/],
    ['components import db at run time', 'components/D.tsx', "import { q } from '@/db/q';\n", /components import db\/ only as types/],
    ['server imports dev', 'server/t.ts', "import { m } from '../dev/mail';\n", /only the start script and the mailbox import dev\//],
    ['server imports app', 'server/t.ts', "export { GET } from '../app/api/mailbox/route';\n", /nothing outside app\/ imports app\//],
  ])('%s', (_name, file, text, expected) => {
    const found = plant(file, text);
    // Every line it reports is about the planted file (db importing app/ breaks two rules at once).
    expect(found.length).toBeGreaterThanOrEqual(1);
    expect(found.every((f) => f.startsWith(`${file}:1 `))).toBe(true);
    expect(found.some((f) => expected.test(f))).toBe(true);
  });
  it('an import cycle, also through a dynamic import; a type-only cycle is not one', () => {
    expect(plant('server/u.ts', "import { s } from './s';\n").concat(checkLayers(new Map([...ok, ['server/s.ts', "import '../domain/a';\nimport './u';\n"], ['server/u.ts', "const s = await import('./s');\n"]])))).toEqual([
      'cycle: server/s.ts → server/u.ts → server/s.ts',
    ]);
    expect(checkLayers(new Map([...ok, ['server/s.ts', "import type { U } from './u';\n"], ['server/u.ts', "import type { S } from './s';\n"]]))).toEqual([]);
  });
});
