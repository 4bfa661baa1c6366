import { describe, expect, it } from 'vitest';
import { readMessage, variableUses } from './message-syntax';

describe('readMessage', () => {
  it('lists the variables in order of first use, with how each is used', () => {
    expect(readMessage("You're booked: {eventTitle} \u2014 {when}")).toEqual({
      ok: true,
      arguments: [
        { name: 'eventTitle', kind: 'text' },
        { name: 'when', kind: 'text' },
      ],
    });
    expect(
      readMessage('{allDay, select, yes {{eventTitle} is on {when}.} other {{eventTitle} starts {when}.}} {count, plural, =0 {none} one {# one} other {# more}}'),
    ).toEqual({
      ok: true,
      arguments: [
        { name: 'allDay', kind: 'select', options: ['other', 'yes'] },
        { name: 'eventTitle', kind: 'text' },
        { name: 'when', kind: 'text' },
        { name: 'count', kind: 'plural', options: ['=0', 'one', 'other'] },
      ],
    });
  });

  it('"<" is text, and an apostrophe before a letter is an apostrophe', () => {
    expect(readMessage("a <b>bold</b> it's {x}")).toEqual({ ok: true, arguments: [{ name: 'x', kind: 'text' }] });
  });

  it.each([
    ['Hello {name', 'EXPECT_ARGUMENT_CLOSING_BRACE', 1, 7],
    ['Line one\n{n, select, a {x}}', 'MISSING_OTHER_CLAUSE', 2, 18],
    ['{count, plural, one {#}}', 'MISSING_OTHER_CLAUSE', 1, 24],
    ['{}', 'EMPTY_ARGUMENT', 1, 1],
  ])('%j is a syntax error (%s at %i:%i)', (source, error, line, column) => {
    expect(readMessage(source)).toEqual({ ok: false, error, line, column });
  });
});

describe('variableUses', () => {
  it('lists every use with its line and column, inside select branches too', () => {
    expect(variableUses('Hi {name}\n{allDay, select, yes {{name} all day} other {x}}')).toEqual({
      ok: true,
      uses: [
        { name: 'name', kind: 'text', line: 1, column: 4 },
        { name: 'allDay', kind: 'select', options: ['other', 'yes'], line: 2, column: 1 },
        { name: 'name', kind: 'text', line: 2, column: 23 },
      ],
    });
  });

  it('a syntax error is where readMessage puts it', () => {
    expect(variableUses('Line one\n{n, select, a {x}}')).toEqual({ ok: false, error: 'MISSING_OTHER_CLAUSE', line: 2, column: 18 });
  });
});
