/**
 * What changed between two versions of a message text (the editor's history): which fields differ, and a line diff
 * of one field (longest common subsequence of lines: kept, removed and added lines in order). A reset version, or
 * Punctual's text before the first version, has no words: `null` fields. Pure.
 */
import { staffTextFields, type StaffTextField } from './staff-text';

/** The words of a version; null fields for a reset (Punctual's text). */
export type VersionText = Record<StaffTextField, string | null>;

/** One line of a diff. */
export interface DiffLine {
  op: 'same' | 'del' | 'add';
  text: string;
}

/** The fields whose text differs between `before` and `after`, in field order. */
export function changedFields(before: VersionText | null, after: VersionText): StaffTextField[] {
  return staffTextFields.filter((f) => (before?.[f] ?? null) !== after[f]);
}

/**
 * The lines of `before` → `after`: each line kept (`same`), removed (`del`) or added (`add`), removals before
 * additions where both happen at one place. An empty or null text has no lines. O(n·m) in lines: texts are at most
 * a few hundred lines (domain/messages/staff-text.ts limits).
 */
export function lineDiff(before: string | null, after: string | null): DiffLine[] {
  const a = before ? before.split('\n') : [];
  const b = after ? after.split('\n') : [];
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push({ op: 'same', text: a[i] });
      i++;
      j++;
    } else if (i < a.length && (j >= b.length || lcs[i + 1][j] >= lcs[i][j + 1])) out.push({ op: 'del', text: a[i++] });
    else out.push({ op: 'add', text: b[j++] });
  }
  return out;
}
