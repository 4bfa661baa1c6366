/**
 * server/platform/request-body.ts: the one reader every API route uses (issue #12 "Bounded request bodies").
 */
import { describe, expect, it } from 'vitest';
import { BodyError, DEFAULT_MAX_BODY_BYTES, maxBodyBytesFromEnv, readBodyBytes, readFormBody, readJsonBody } from '@/server/platform/request-body';

const post = (body: BodyInit | null, headers: Record<string, string> = {}) => new Request('http://127.0.0.1/api/x', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);

/** A body stream of `total` bytes in 64 KiB chunks, without Content-Length; counts what was pulled. */
function stream(total: number) {
  const seen = { bytes: 0 };
  const chunk = new Uint8Array(65_536).fill(0x20);
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (seen.bytes >= total) return c.close();
      seen.bytes += chunk.byteLength;
      c.enqueue(chunk);
    },
  });
  return { body, seen };
}

async function refusal(p: Promise<unknown>): Promise<{ status: number; message: string; field: string }> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(BodyError);
  const b = e as BodyError;
  return { status: b.status, message: b.message, field: b.field };
}

describe('PUNCTUAL_MAX_BODY_BYTES', () => {
  it('defaults to 1 MiB; accepts 1 KiB to 8 MiB; names the variable otherwise', () => {
    expect(maxBodyBytesFromEnv({})).toBe(1_048_576);
    expect(maxBodyBytesFromEnv({ PUNCTUAL_MAX_BODY_BYTES: '2048' })).toBe(2048);
    for (const bad of ['1000', '9000000', '1mb', '-5']) expect(() => maxBodyBytesFromEnv({ PUNCTUAL_MAX_BODY_BYTES: bad })).toThrow(/^PUNCTUAL_MAX_BODY_BYTES: /);
  });
});

describe('size', () => {
  it('413 from Content-Length alone, before reading', async () => {
    const r = await refusal(readBodyBytes(post('x'.repeat(100), { 'content-length': String(DEFAULT_MAX_BODY_BYTES + 1) })));
    expect(r).toEqual({ status: 413, message: `body: larger than ${DEFAULT_MAX_BODY_BYTES} bytes (the limit of a request body)`, field: 'body' });
  });

  it('413 for a 12 MB stream without Content-Length, reading stops just past the cap', async () => {
    const { body, seen } = stream(12 * 1_048_576);
    const r = await refusal(readJsonBody(post(body)));
    expect(r.status).toBe(413);
    expect(seen.bytes).toBeLessThan(DEFAULT_MAX_BODY_BYTES + 3 * 65_536);
  });

  it('reads a body at the cap exactly, and a smaller cap is honoured', async () => {
    expect((await readBodyBytes(post('y'.repeat(2048)), 2048)).byteLength).toBe(2048);
    expect((await refusal(readBodyBytes(post('y'.repeat(2049)), 2048))).status).toBe(413);
  });
});

describe('JSON', () => {
  it('parses ordinary bodies; empty is undefined', async () => {
    expect(await readJsonBody(post(JSON.stringify({ address: 'a@b.test', ids: [1, [2]] })))).toEqual({ address: 'a@b.test', ids: [1, [2]] });
    expect(await readJsonBody(post(null))).toBeUndefined();
  });

  it('400 for the 10,000-deep body of the issue, before parsing (it was a 500: stack overflow)', async () => {
    const body = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
    expect(body.length).toBeGreaterThan(50_000);
    expect(await refusal(readJsonBody(post(body)))).toEqual({ status: 400, message: 'body: nested deeper than 32 levels', field: 'body' });
  });

  it('400 "not valid JSON" for broken JSON; a body over 10 MB is 413, not "not valid JSON"', async () => {
    expect(await refusal(readJsonBody(post('{"a":')))).toEqual({ status: 400, message: 'request body: not valid JSON', field: 'body' });
    const big = JSON.stringify({ note: 'z'.repeat(10.5 * 1_048_576) });
    expect((await refusal(readJsonBody(post(big)))).status).toBe(413);
  });

  it('400 naming the field for a string over 10,000 characters (a 1 MB address)', async () => {
    const r = await refusal(readJsonBody(post(JSON.stringify({ address: `${'a'.repeat(1_000_000)}@example.test`, reason: 'manual' }))));
    expect(r).toEqual({ status: 400, message: 'address: longer than 10000 characters', field: 'address' });
    expect((await refusal(readJsonBody(post(JSON.stringify({ contact: { name: 'n'.repeat(10_001) } }))))).field).toBe('contact.name');
  });
});

describe('forms', () => {
  it('reads url-encoded and multipart forms within the cap, 413 above it', async () => {
    const f = await readFormBody(post('List-Unsubscribe=One-Click', { 'content-type': 'application/x-www-form-urlencoded' }));
    expect(f.get('List-Unsubscribe')).toBe('One-Click');
    const multipart = new FormData();
    multipart.set('reminders', 'off');
    const req = new Request('http://127.0.0.1/x', { method: 'POST', body: multipart });
    expect((await readFormBody(req)).get('reminders')).toBe('off');
    expect((await refusal(readFormBody(post(`a=${'b'.repeat(20_000)}`, { 'content-type': 'application/x-www-form-urlencoded' }), 16_384))).status).toBe(413);
  });
});

describe('NUL characters (adversary finding: a NUL in the sign-in email reached PostgreSQL as a 500)', () => {
  it('a JSON string holding U+0000 is a 400 naming its field, before any query sees it', async () => {
    const r = await refusal(readJsonBody(post('{"email":"a\\u0000@x.test","password":"x"}', { 'content-type': 'application/json' })));
    expect(r).toMatchObject({ status: 400, field: 'email' });
    expect(r.message).toBe('email: contains a NUL character (U+0000)');
  });
});
