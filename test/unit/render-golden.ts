/**
 * Golden outputs of the render cases (test/unit/render-cases.ts): per case the subject, the SMS text and the
 * SHA-256 (hex) of the email's HTML and plain-text part. The committed file test/fixtures/render-golden.json
 * was written from the renderer as it was BEFORE the rendering speed-up of issue #11 (two React renders, one
 * with `plainText: true`), so the identity test proves the new path writes the same bytes. The de, nl and ar cases
 * were rewritten when messages got their text in the reader's language (German and Dutch text; Arabic, not shipped,
 * reads English with English dates); the en and en-US cases are still the original bytes.
 *
 * Write (only when the output is meant to change): `node --import tsx test/unit/render-golden.ts --write`.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderReminderEmail } from '@/emails';
import { renderSmsText } from '@/emails/sms';
import { renderCases } from './render-cases';

const goldenPath = fileURLToPath(new URL('../fixtures/render-golden.json', import.meta.url));

interface Golden {
  subject: string;
  sms: string;
  /** SHA-256 of the HTML, hex. */
  html: string;
  /** SHA-256 of the plain-text part, hex. */
  text: string;
}

/** SHA-256 of a UTF-8 string, hex. */
export function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** The committed goldens by case id. */
export function readGoldens(): Record<string, Golden> {
  return JSON.parse(readFileSync(goldenPath, 'utf8')) as Record<string, Golden>;
}

async function write(): Promise<void> {
  const out: Record<string, Golden> = {};
  for (const c of renderCases()) {
    const r = await renderReminderEmail(c.template, c.data);
    out[c.id] = { subject: r.subject, sms: renderSmsText(c.template, c.data), html: sha256(r.html), text: sha256(r.text) };
  }
  writeFileSync(goldenPath, `${JSON.stringify(out, null, 1)}\n`);
  console.log(`wrote ${Object.keys(out).length} goldens to ${goldenPath}`);
}

if (process.argv.includes('--write') && process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await write();
}
