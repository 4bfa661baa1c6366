/**
 * The variables staff text may use (domain/messages/message-variables.ts) cover the built-in text: every variable the
 * English catalog (emails/messages/en.ts) uses in a kind's messages is a variable of that kind, used the way its type
 * allows — so a staff member can write anything Punctual's own text says.
 */
import { describe, expect, it } from 'vitest';
import { catalogs } from '@/emails/messages';
import { readMessage } from '@/domain/messages/message-syntax';
import { messageVariables, variableNames } from '@/domain/messages/message-variables';
import { templateIds } from '@/domain/vocabulary';

describe('message variables per kind', () => {
  it.each(templateIds)('%s: the English text uses only listed variables, and every listed variable is used', (kind) => {
    const used = new Set<string>();
    for (const source of Object.values(catalogs.en[kind])) {
      const r = readMessage(source);
      if (!r.ok) throw new Error(`${kind}: ${source}`);
      for (const a of r.arguments) {
        used.add(a.name);
        const v = messageVariables[kind].find((x) => x.name === a.name);
        expect(v, `${kind} uses {${a.name}}`).toBeDefined();
        expect(v?.type === 'choice' ? 'select' : 'text', `${kind} {${a.name}}`).toBe(a.kind);
      }
    }
    expect([...used].sort()).toEqual([...variableNames(kind)].sort());
  });
});
