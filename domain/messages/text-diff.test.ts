import { describe, expect, it } from 'vitest';
import { changedFields, lineDiff } from './text-diff';

describe('changedFields', () => {
  const v1 = { subject: 'Hi {eventTitle}', body: 'A\nB', sms: 'S' };
  it.each([
    ['nothing before (the first version): every field', null, v1, ['subject', 'body', 'sms']],
    ['the same text: none', v1, { ...v1 }, []],
    ['only the body', v1, { ...v1, body: 'A\nC' }, ['body']],
    ['a reset after a version: every field', v1, { subject: null, body: null, sms: null }, ['subject', 'body', 'sms']],
  ] as const)('%s', (_, before, after, expected) => {
    expect(changedFields(before, after)).toEqual(expected);
  });
});

describe('lineDiff', () => {
  it.each([
    ['one line changed in the middle', 'a\nb\nc', 'a\nB\nc', [['same', 'a'], ['del', 'b'], ['add', 'B'], ['same', 'c']]],
    ['a line added at the end', 'a', 'a\nb', [['same', 'a'], ['add', 'b']]],
    ['from nothing (reset → text)', null, 'x', [['add', 'x']]],
    ['to nothing (text → reset)', 'x\ny', null, [['del', 'x'], ['del', 'y']]],
    ['identical', 'x', 'x', [['same', 'x']]],
  ] as const)('%s', (_, a, b, expected) => {
    expect(lineDiff(a, b).map((l) => [l.op, l.text])).toEqual(expected);
  });
});
