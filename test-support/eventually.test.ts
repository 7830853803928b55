import { describe, expect, it } from 'vitest';
import { eventually } from './eventually';

describe('eventually', () => {
  it('polls through failures until the probe answers', async () => {
    let calls = 0;
    const value = await eventually('the third call', async () => {
      calls++;
      if (calls < 3) throw new Error('not yet');
      return 'ready';
    });
    expect(value).toBe('ready');
    expect(calls).toBe(3);
  });

  it('rethrows at once what `rethrow` says no retry can cure', async () => {
    let calls = 0;
    const fatal = new Error('invalid config');
    await expect(
      eventually(
        'a fatal error',
        async () => {
          calls++;
          throw fatal;
        },
        30_000,
        { rethrow: (error) => error === fatal },
      ),
    ).rejects.toBe(fatal);
    expect(calls).toBe(1);
  });

  it('names what it waited for and the last error when time runs out', async () => {
    await expect(eventually('leaders', async () => Promise.reject(new Error('NOT_LEADER')), 300)).rejects.toThrow(
      /timed out after 300 ms waiting for leaders \(last error: Error: NOT_LEADER\)/,
    );
  });
});
