import { describe, expect, it } from 'vitest';
import { effectiveVersion, nextVersion, type TextVersion } from './text-versions';

const d: TextVersion = { status: 'draft', version: null };
const p = (version: number): TextVersion => ({ status: 'published', version });
const r = (version: number): TextVersion => ({ status: 'reset', version });

describe('effectiveVersion / nextVersion', () => {
  it.each<[string, TextVersion[], number | null, number]>([
    ['nothing written: built-in, next is 1', [], null, 1],
    ['only a draft: built-in', [d], null, 1],
    ['one published version', [p(1)], 1, 2],
    ['the highest published wins, in any order, draft ignored', [p(1), d, p(3), p(2)], 3, 4],
    ['a reset on top: built-in', [p(1), r(2)], null, 3],
    ['published after a reset', [p(1), r(2), p(3)], 3, 4],
  ])('%s', (_name, rows, effective, next) => {
    expect(effectiveVersion(rows)?.version ?? null).toBe(effective);
    expect(nextVersion(rows)).toBe(next);
  });
});
