import { describe, expect, it } from 'vitest';
import { readReadyzAnswer, waitUntilReady, type ReadyzAnswer } from './readiness';

describe('a /readyz answer', () => {
  it('is ready on 200 only, with the detail of its body', () => {
    expect(readReadyzAnswer(200, { detail: 'consuming 3 partitions' })).toEqual({
      ready: true,
      detail: 'consuming 3 partitions',
    });
    expect(readReadyzAnswer(503, { detail: 'not joined to the group yet' })).toEqual({
      ready: false,
      detail: 'not joined to the group yet',
    });
  });

  it('names the HTTP status when the body has no text detail', () => {
    expect(readReadyzAnswer(503, {})).toEqual({ ready: false, detail: 'HTTP 503' });
    expect(readReadyzAnswer(200, { detail: 7 })).toEqual({ ready: true, detail: 'HTTP 200' });
    expect(readReadyzAnswer(502, null)).toEqual({ ready: false, detail: 'HTTP 502' });
  });
});

describe('waitUntilReady', () => {
  const answers = (...list: ReadyzAnswer[]) => {
    let asked = 0;
    return {
      ask: async () => list[Math.min(asked++, list.length - 1)]!,
      asked: () => asked,
    };
  };

  it('asks until the answer is ready', async () => {
    const readiness = answers({ ready: false, detail: 'starting' }, { ready: true, detail: 'ok' });
    await waitUntilReady({ name: 'the worker', ask: readiness.ask, exitedOutput: () => null, timeoutMs: 10_000 });
    expect(readiness.asked()).toBe(2);
  });

  it('fails at once, with the output, when the process exited', async () => {
    const readiness = answers({ ready: false, detail: 'unreachable' });
    await expect(
      waitUntilReady({
        name: 'the orders service on port 7001',
        ask: readiness.ask,
        exitedOutput: () => 'DATABASE_URL: not a URL',
        timeoutMs: 60_000,
      }),
    ).rejects.toThrow('the orders service on port 7001 exited before it was ready:\nDATABASE_URL: not a URL');
    expect(readiness.asked()).toBe(0);
  });

  it('fails after the timeout naming the process', async () => {
    const readiness = answers({ ready: false, detail: 'not joined to the group yet' });
    await expect(
      waitUntilReady({ name: 'the worker on port 9464', ask: readiness.ask, exitedOutput: () => null, timeoutMs: 50 }),
    ).rejects.toThrow('timed out after 50 ms waiting for the worker on port 9464 to be ready');
  });
});
