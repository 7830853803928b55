import { describe, expect, it } from 'vitest';
import { decodeCompletedAbove, nextCommitOffset } from './offsets.js';
import { PartitionState } from './partition-state.js';
import { RecordEntry } from './record-entry.js';
import type { SourceRecord } from './types.js';
import { seededRandom } from './testing/seeded-random.js';

const record = (offset: bigint): SourceRecord => ({
  topic: 't',
  partition: 0,
  offset: offset.toString(),
  key: null,
  value: Buffer.from('{}'),
  timestampMs: 0,
  headers: {},
});

describe('PartitionState.commitCandidate', () => {
  it('agrees with nextCommitOffset (the commit rule) and lists exactly the completed records above it', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const random = seededRandom(seed);
      const state = new PartitionState<RecordEntry<unknown>>('t', 0);
      const entries: RecordEntry<unknown>[] = [];
      // Offsets with gaps (compaction, transaction markers), some above 2^53 to keep int64 exact.
      let offset = seed % 2 === 0 ? 9_007_199_254_740_990n : 0n;
      const count = 1 + Math.floor(random() * 40);
      for (let index = 0; index < count; index++) {
        offset += random() < 0.2 ? 2n : 1n;
        const entry = new RecordEntry<unknown>(state, record(offset), offset.toString(), offset, 0, 2);
        state.append(entry);
        entries.push(entry);
      }
      for (const entry of entries) if (random() < 0.7) state.complete(entry);

      const completed = new Set(entries.filter((entry) => entry.status === 'complete').map((entry) => entry.offset));
      const expected = nextCommitOffset(
        entries.map((entry) => entry.offset),
        completed,
      );
      const candidate = state.commitCandidate(4_000);
      expect(candidate?.request.offset ?? null, `seed ${seed}`).toBe(expected);
      if (candidate && expected !== null) {
        const above = [...completed].filter((value) => BigInt(value) >= BigInt(expected));
        expect([...decodeCompletedAbove(expected, candidate.request.metadata)].sort(), `seed ${seed}`).toEqual(
          above.sort(),
        );
        // Once acknowledged, the same state needs no further commit.
        state.acknowledgeCommit(candidate.request);
        expect(state.commitCandidate(4_000), `seed ${seed}`).toBeNull();
      }
    }
  });

  it('keeps only offsets of the completed prefix, and a rewind into it remembers them as complete', () => {
    const state = new PartitionState<RecordEntry<unknown>>('t', 0);
    const entries = [0n, 1n, 2n, 3n].map(
      (offset) => new RecordEntry<unknown>(state, record(offset), offset.toString(), offset, 0, 2),
    );
    for (const entry of entries) state.append(entry);
    for (const entry of entries.slice(0, 3)) state.complete(entry);
    expect(state.completedPrefixCount).toBe(3);
    expect(state.delivered).toEqual([entries[3]]);
    expect(state.pending).toBe(4);
    expect(state.commitCandidate(4_000)?.request.offset).toBe('3');

    const { released, count } = state.releaseFrom(1n, true);
    expect(released).toEqual([entries[3]]);
    expect(count).toBe(3);
    expect([...state.skip.keys()].sort()).toEqual(['1', '2']);
    expect(state.pending).toBe(1);
    expect(state.rewindPoint()).toBe('0');
    expect(state.accepts(1n)).toBe(true);
    expect(state.commitCandidate(4_000)?.request).toMatchObject({ offset: '1' });
  });

  it('stays exact over thousands of records completing and committing (the queues compact as they go)', () => {
    const state = new PartitionState<RecordEntry<unknown>>('t', 0);
    const entries = Array.from({ length: 5_000 }, (_, index) => {
      const offset = BigInt(index);
      const entry = new RecordEntry<unknown>(state, record(offset), offset.toString(), offset, 0, 2);
      state.append(entry);
      return entry;
    });
    const held = entries[3_500]!;
    for (const [index, entry] of entries.entries()) {
      if (entry !== held) state.complete(entry);
      if (index % 700 === 0) {
        const candidate = state.commitCandidate(4_000);
        if (candidate) state.acknowledgeCommit(candidate.request);
      }
    }
    expect(state.oldestUnfinished()).toBe(held);
    expect(state.commitCandidate(4_000)?.request.offset).toBe('3500');
    state.acknowledgeCommit(state.commitCandidate(4_000)!.request);
    expect(state.pending).toBe(1_500);
    state.complete(held);
    expect(state.commitCandidate(4_000)?.request.offset).toBe('5000');
    state.acknowledgeCommit(state.commitCandidate(4_000)!.request);
    expect(state.pending).toBe(0);
    expect(state.delivered).toEqual([]);
  });

  it('never moves behind the acknowledged commit, and accepts only offsets above what it holds', () => {
    const state = new PartitionState<RecordEntry<unknown>>('t', 0);
    state.committed = { offset: '10', metadata: 'w1:10:' };
    state.raiseFloor(10n);
    expect(state.accepts(9n)).toBe(false);
    expect(state.accepts(10n)).toBe(true);
    const entry = new RecordEntry<unknown>(state, record(10n), '10', 10n, 0, 2);
    state.append(entry);
    expect(state.accepts(10n)).toBe(false);
    // Nothing complete yet: the candidate is the acknowledged commit itself, which the broker already has.
    expect(state.commitCandidate(4_000)).toBeNull();
    state.complete(entry);
    expect(state.commitCandidate(4_000)?.request.offset).toBe('11');
  });
});
