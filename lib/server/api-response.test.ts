import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, readJsonBody } from './api-response';
import { refusal } from '../../test-support/refusal';

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request('http://127.0.0.1/api/x', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);

/** A body that never says its length and would go on forever; counts what was pulled from it. */
function endlessStream() {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += 1;
      controller.enqueue(new TextEncoder().encode(`"${'x'.repeat(4094)}"`));
    },
  });
  return { stream, pulled: () => pulled };
}

describe('readJsonBody', () => {
  it('parses a body up to the limit', async () => {
    const reason = 'r'.repeat(MAX_BODY_BYTES - 20);
    expect(await readJsonBody(post(JSON.stringify({ reason })))).toEqual({ reason });
  });

  it('refuses a declared oversize body with 413 before reading it', async () => {
    const error = await refusal(readJsonBody(post('{}', { 'content-length': String(MAX_BODY_BYTES + 1) })));
    expect([error.status, error.message, error.field]).toEqual([413, 'body: must be at most 32768 bytes', 'body']);
  });

  it('refuses an oversize body without a length once the limit is passed, and stops reading it', async () => {
    const big = await refusal(readJsonBody(post(JSON.stringify({ reason: 'r'.repeat(MAX_BODY_BYTES) }))));
    expect(big.status).toBe(413);
    const endless = endlessStream();
    const error = await refusal(readJsonBody(post(endless.stream)));
    expect(error.status).toBe(413);
    expect(endless.pulled()).toBeLessThanOrEqual(MAX_BODY_BYTES / 4096 + 2);
  });

  it('says 400 for a body that is not JSON, including an empty one', async () => {
    for (const body of ['not json', '', '{"a":'])
      expect(await refusal(readJsonBody(post(body)))).toMatchObject({
        status: 400,
        message: 'body: must be a JSON object',
      });
  });
});
