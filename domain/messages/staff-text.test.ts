import { describe, expect, it } from 'vitest';
import { templateIds } from '@/domain/vocabulary';
import { checkStaffText, type StaffDraft, type StaffTextError } from './staff-text';
import { variableNames } from './message-variables';

const good: StaffDraft = {
  subject: 'Erinnerung: {eventTitle}',
  body: 'Guten Tag,\n\n**{eventTitle}** beginnt {when}. Bitte bringen Sie eine *Schürze* mit.\n\n- Parken: [Lageplan](https://example.com/plan)\n- Fragen? Schreiben Sie {tenantName}.',
  sms: '{tenantName}: Erinnerung - {eventTitle}, {when}.',
};

function errorsOf(draft: Partial<StaffDraft>, kind: (typeof templateIds)[number] = 'attendee-reminder', smsSegmentLimit = 2): StaffTextError[] {
  const r = checkStaffText({ kind, locale: 'de', draft: { ...good, ...draft }, smsSegmentLimit });
  return r.ok ? [] : r.errors;
}

describe('checkStaffText', () => {
  it('accepts a draft that uses only the kind’s variables, the Markdown subset and a short SMS', () => {
    expect(checkStaffText({ kind: 'attendee-reminder', locale: 'de', draft: good, smsSegmentLimit: 1 })).toEqual({ ok: true });
  });

  it('issue #22 scenario: {eventTitel} in a German reminder body names the variable, its line, and the known variables', () => {
    const errors = errorsOf({ body: 'Guten Tag,\n\n{eventTitel} beginnt {when}.' });
    expect(errors).toEqual([
      expect.objectContaining({
        field: 'body',
        line: 3,
        column: 1,
        code: 'unknown_variable',
        variable: 'eventTitel',
        known: ['eventTitle', 'when', 'allDay', 'eventNote', 'tenantName'],
        suggestion: 'eventTitle',
      }),
    ]);
    expect(errors[0].message).toContain('{eventTitel}');
    expect(errors[0].message).toContain('{eventTitle}');
    expect(errors[0].message).toContain('line 3');
  });

  it.each<[string, Partial<StaffDraft>, Partial<StaffTextError>]>([
    ['empty subject', { subject: '  ' }, { field: 'subject', line: 1, code: 'required' }],
    ['empty body', { body: '' }, { field: 'body', line: 1, code: 'required' }],
    ['empty SMS', { sms: '\n' }, { field: 'sms', line: 1, code: 'required' }],
    ['subject over 200 characters', { subject: 'x'.repeat(201) }, { field: 'subject', code: 'too_long' }],
    ['two-line subject', { subject: 'Hallo\n{eventTitle}' }, { field: 'subject', line: 2, code: 'multiline' }],
    ['unclosed brace in the subject', { subject: 'Erinnerung: {eventTitle' }, { field: 'subject', line: 1, code: 'syntax' }],
    ['select without other, line 2', { body: 'Hallo\n{allDay, select, yes {ganztägig}}' }, { field: 'body', line: 2, code: 'syntax' }],
    ['empty braces in the SMS', { sms: 'Hallo {}' }, { field: 'sms', line: 1, column: 7, code: 'syntax' }],
    ['unknown variable in the SMS', { sms: '{firma}: {eventTitle}' }, { field: 'sms', line: 1, column: 1, code: 'unknown_variable', variable: 'firma' }],
    ['variable in another case', { subject: '{eventtitle}' }, { field: 'subject', code: 'unknown_variable', variable: 'eventtitle', suggestion: 'eventTitle' }],
    ['unknown variable inside a select branch', { body: '{allDay, select, yes {{titel}} other {x}}' }, { field: 'body', line: 1, code: 'unknown_variable', variable: 'titel' }],
    ['text variable used as a plural', { body: '{eventTitle, plural, one {#} other {#}}' }, { field: 'body', code: 'variable_use', variable: 'eventTitle' }],
    ['text variable used as a date', { body: '{when, date, short}' }, { field: 'body', code: 'variable_use', variable: 'when' }],
    ['choice variable printed as it is', { body: 'Ganztägig: {allDay}' }, { field: 'body', code: 'variable_use', variable: 'allDay' }],
    ['select option a choice never takes', { body: '{allDay, select, ja {ganztägig} other {}}' }, { field: 'body', code: 'option', variable: 'allDay' }],
    ['quoted placeholder prints braces', { body: "Titel: '{eventTitle}'" }, { field: 'body', line: 1, column: 8, code: 'raw_placeholder' }],
    ['French elision before a variable', { subject: "Rappel de l'{eventTitle}" }, { field: 'subject', code: 'raw_placeholder' }],
    ['javascript: link', { body: 'Hallo\n[klicken](javascript:alert)' }, { field: 'body', line: 2, column: 1, code: 'link' }],
    ['mailto: link', { body: '[Schreiben](mailto:a@example.com)' }, { field: 'body', code: 'link' }],
    ['relative link', { body: '[Plan](/plan)' }, { field: 'body', code: 'link' }],
    ['text variable as a link target', { body: '[Titel]({eventTitle})' }, { field: 'body', code: 'link', variable: 'eventTitle' }],
    ['image', { body: '![Logo](https://example.com/logo.png)' }, { field: 'body', code: 'image' }],
    ['raw HTML tag, line 3', { body: 'a\n\nZeile<br>zwei' }, { field: 'body', line: 3, column: 6, code: 'html' }],
    ['HTML comment', { body: 'a <!-- b -->' }, { field: 'body', line: 1, column: 3, code: 'html' }],
    ['autolink in angle brackets', { body: '<https://example.com>' }, { field: 'body', code: 'html' }],
    ['SMS over the segment limit', { sms: `{tenantName}: ${'Bitte pünktlich sein. '.repeat(12)}{eventTitle}` }, { field: 'sms', line: 1, code: 'sms_segments' }],
  ])('%s', (_name, draft, expected) => {
    const errors = errorsOf(draft);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject(expected);
    expect(errors[0].message.length).toBeGreaterThan(10);
  });

  it.each<[string, Partial<StaffDraft>]>([
    ['a "<" that starts no tag', { body: 'Weniger als 5 < 10 Plätze' }],
    ['a link to the room variable of room-opening', { body: '[Zum Raum]({url}) ab {time}' }],
    ['doubled apostrophe before a variable', { subject: "Rappel de l''{eventTitle}" }],
    ['select over every value of a choice', { body: '{allDay, select, yes {ganztägig} no {ab {when}} other {}}' }],
    ['a plain apostrophe in words', { body: "Sie's {eventTitle}" }],
  ])('accepts %s', (_name, draft) => {
    const kind = draft.body?.includes('{url}') ? 'room-opening' : 'attendee-reminder';
    const base = kind === 'room-opening' ? { subject: 'Raum für {eventTitle}', sms: '{tenantName}: {url}' } : {};
    expect(checkStaffText({ kind, locale: 'fr', draft: { ...good, ...base, ...draft }, smsSegmentLimit: 3 })).toEqual({ ok: true });
  });

  it('the SMS limit is the caller’s: the same text passes with a higher limit, and Unicode text counts UCS-2 segments', () => {
    const sms = `{tenantName}: ${'Bitte pünktlich sein. '.repeat(12)}{eventTitle}`;
    expect(errorsOf({ sms }, 'attendee-reminder', 3)).toEqual([]);
    const hebrew = `{tenantName}: ${'תזכורת '.repeat(10)}`;
    const [e] = errorsOf({ sms: hebrew }, 'attendee-reminder', 1);
    expect(e).toMatchObject({ code: 'sms_segments' });
    expect(e.message).toContain('UCS-2');
  });

  it('reports every error, ordered by field, line and column', () => {
    const errors = errorsOf({ subject: '{x}', body: '<i>a</i>\n{y} [z](ftp://a)', sms: '{z}' });
    expect(errors.map((e) => [e.field, e.line, e.code])).toEqual([
      ['subject', 1, 'unknown_variable'],
      ['body', 1, 'html'],
      ['body', 1, 'html'],
      ['body', 2, 'unknown_variable'],
      ['body', 2, 'link'],
      ['sms', 1, 'unknown_variable'],
    ]);
  });

  it('the event note goes on a line of its own in the body (it may be empty); in the subject and SMS anywhere', () => {
    for (const body of ['Hallo\n\n{eventNote}\n\nBis bald.', '- {eventNote}', '**{eventNote}**', '  { eventNote }  ']) {
      expect(errorsOf({ body }), body).toEqual([]);
    }
    expect(errorsOf({ subject: 'Erinnerung {eventNote}', sms: '{eventTitle} {eventNote}' })).toEqual([]);
    const errors = errorsOf({ body: 'Hallo,\nBitte beachten: {eventNote}' });
    expect(errors).toEqual([expect.objectContaining({ field: 'body', line: 2, column: 17, code: 'variable_use', variable: 'eventNote' })]);
    expect(errors[0].message).toContain('on a line of its own');
    // A kind without the note does not know it at all.
    expect(errorsOf({ body: '{eventNote}' }, 'event-cancelled').map((e) => e.code)).toEqual(['unknown_variable']);
  });

  it.each(templateIds)('%s: each of its variables is accepted, and a name outside them is not', (kind) => {
    for (const name of variableNames(kind)) {
      const use = name === 'allDay' ? '{allDay, select, yes {a} other {b}}' : `{${name}}`;
      const r = checkStaffText({ kind, locale: 'en', draft: { subject: `S ${use}`, body: `B\n${use}`, sms: `T ${use}` }, smsSegmentLimit: 2 });
      expect(r, `${kind} ${name}`).toEqual({ ok: true });
    }
    const r = checkStaffText({ kind, locale: 'en', draft: { subject: '{name}', body: 'b', sms: 's' }, smsSegmentLimit: 2 });
    expect(r.ok ? [] : r.errors.map((e) => e.known)).toEqual([variableNames(kind)]);
  });
});
