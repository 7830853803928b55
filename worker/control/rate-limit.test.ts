import { describe, expect, it } from 'vitest';
import { RateLimit } from './rate-limit';

describe('RateLimit', () => {
  it('lets one line per kind through per interval and counts the ones it held back', () => {
    let nowMs = 0;
    const limit = new RateLimit(60_000, () => nowMs);
    expect(limit.take('refused: not JSON')).toEqual({ log: true, suppressed: 0 });
    nowMs = 10_000;
    expect(limit.take('refused: not JSON')).toEqual({ log: false, suppressed: 0 });
    expect(limit.take('refused: not JSON').log).toBe(false);
    // Another kind has its own interval.
    expect(limit.take('write failed')).toEqual({ log: true, suppressed: 0 });
    nowMs = 60_000;
    expect(limit.take('refused: not JSON')).toEqual({ log: true, suppressed: 2 });
    expect(limit.take('refused: not JSON').log).toBe(false);
  });

  it('forgets the oldest kind beyond its bound', () => {
    let nowMs = 0;
    const limit = new RateLimit(60_000, () => nowMs);
    limit.take('a', 2);
    limit.take('b', 2);
    limit.take('c', 2);
    nowMs = 1;
    expect(limit.take('a', 2).log).toBe(true); // forgotten: logged again at once
    expect(limit.take('c', 2).log).toBe(false);
  });
});
