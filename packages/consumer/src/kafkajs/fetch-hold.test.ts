import { describe, expect, it } from 'vitest';
import { fetchHoldMs, HELD_BATCH_MAX_MS, type FetchHoldPartition } from './fetch-hold.js';

const flowing: FetchHoldPartition = { paused: false, backpressured: false, caughtUp: false };
const caughtUp: FetchHoldPartition = { paused: false, backpressured: false, caughtUp: true };
const backpressured: FetchHoldPartition = { paused: true, backpressured: true, caughtUp: false };
const quarantined: FetchHoldPartition = { paused: true, backpressured: false, caughtUp: false };

describe('fetchHoldMs', () => {
  it('lets kafkajs fetch while any unpaused partition may have data', () => {
    expect(fetchHoldMs([flowing, backpressured], 100)).toBeNull();
    expect(fetchHoldMs([flowing, caughtUp, quarantined], 100)).toBeNull();
  });

  it('holds up to the long bound when every partition is paused, whatever the reason', () => {
    expect(fetchHoldMs([backpressured, backpressured], 100)).toBe(HELD_BATCH_MAX_MS);
    expect(fetchHoldMs([quarantined], 100)).toBe(HELD_BATCH_MAX_MS);
  });

  it('holds for at most the fetch wait when only caught-up partitions are unpaused and one will resume on a commit', () => {
    expect(fetchHoldMs([caughtUp, backpressured, caughtUp], 100)).toBe(100);
    expect(fetchHoldMs([caughtUp, quarantined, backpressured], 25)).toBe(25);
  });

  it('does not hold caught-up partitions for a quarantine: nothing resumes until an operator acts', () => {
    expect(fetchHoldMs([caughtUp, quarantined], 100)).toBeNull();
    expect(fetchHoldMs([caughtUp, caughtUp], 100)).toBeNull();
  });

  it('does not hold without partitions', () => {
    expect(fetchHoldMs([], 100)).toBeNull();
  });
});
