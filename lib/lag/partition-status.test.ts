import { describe, expect, it } from 'vitest';
import {
  type CommitSample,
  combineGroupStatus,
  evaluatePartitionStatus,
  lagOf,
  type PartitionStatus,
} from './partition-status';

/** One commit per second from t=0: [committedOffset, logEndOffset] pairs. */
function windowOf(entries: Array<[number, number]>, stepMs = 1_000): CommitSample[] {
  return entries.map(([committedOffset, logEndOffset], i) => ({ atMs: i * stepMs, committedOffset, logEndOffset }));
}
/** Ten commits, committed advancing by `step`, log end `lag` ahead plus `growth` more each commit. */
function steady({ step, lag, growth = 0 }: { step: number; lag: number; growth?: number }): CommitSample[] {
  return windowOf(Array.from({ length: 10 }, (_, i) => [i * step, i * step + lag + i * growth] as [number, number]));
}
// The window spans 0..9 s; STOP needs now - 9 s > 9 s, i.e. now > 18 s.
const FRESH = 10_000;

describe('evaluatePartitionStatus', () => {
  it('is OK with fewer entries than required, whatever they show', () => {
    const stalled = windowOf(Array.from({ length: 9 }, () => [5, 100] as [number, number]));
    expect(evaluatePartitionStatus({ samples: stalled, nowMs: 1_000_000 })).toBe('OK');
    expect(evaluatePartitionStatus({ samples: [], nowMs: 0 })).toBe('OK');
    expect(evaluatePartitionStatus({ samples: stalled, nowMs: 1_000_000, minSamples: 9 })).toBe('STOP');
  });

  it('is OK when the current lag is at or below the allowed lag', () => {
    const drained = steady({ step: 10, lag: 50 }).map((s, i) =>
      i === 9 ? { ...s, logEndOffset: s.committedOffset } : s,
    );
    expect(evaluatePartitionStatus({ samples: drained, nowMs: 1_000_000 })).toBe('OK');
    expect(evaluatePartitionStatus({ samples: steady({ step: 0, lag: 50 }), nowMs: FRESH, allowedLag: 50 })).toBe('OK');
  });

  it('is OK when some earlier entry had lag at or below the allowed lag, even if stalled or stopped now', () => {
    const samples = windowOf([[0, 0], ...Array.from({ length: 9 }, () => [0, 100] as [number, number])]);
    expect(evaluatePartitionStatus({ samples, nowMs: FRESH })).toBe('OK');
    expect(evaluatePartitionStatus({ samples, nowMs: 1_000_000 })).toBe('OK');
    const above = windowOf([[0, 60], ...Array.from({ length: 9 }, () => [0, 100] as [number, number])]);
    expect(evaluatePartitionStatus({ samples: above, nowMs: FRESH, allowedLag: 50 })).toBe('STALL');
    expect(evaluatePartitionStatus({ samples: above, nowMs: FRESH, allowedLag: 60 })).toBe('OK');
  });

  it('treats a committed offset past the log end as zero lag', () => {
    expect(lagOf({ atMs: 0, committedOffset: 12, logEndOffset: 10 })).toBe(0);
    const samples = steady({ step: 10, lag: 50 }).map((s, i) =>
      i === 4 ? { ...s, logEndOffset: s.committedOffset - 3 } : s,
    );
    expect(evaluatePartitionStatus({ samples, nowMs: FRESH })).toBe('OK');
  });

  it('is REWIND when a committed offset goes backwards, checked before STOP', () => {
    const samples = windowOf([
      [100, 500],
      [110, 500],
      [120, 500],
      [5, 500],
      [15, 500],
      [25, 500],
      [35, 500],
      [45, 500],
      [55, 500],
      [65, 500],
    ]);
    expect(evaluatePartitionStatus({ samples, nowMs: FRESH })).toBe('REWIND');
    expect(evaluatePartitionStatus({ samples, nowMs: 1_000_000 })).toBe('REWIND');
  });

  it('is STOP when the time since the last commit exceeds the window span', () => {
    const samples = steady({ step: 10, lag: 50 });
    expect(evaluatePartitionStatus({ samples, nowMs: 18_000 })).toBe('WARN'); // equal is not "greater"
    expect(evaluatePartitionStatus({ samples, nowMs: 18_001 })).toBe('STOP');
    // A consumer that was draining (lag decreasing, OK while fresh) but then stopped committing.
    const draining = windowOf(Array.from({ length: 10 }, (_, i) => [i * 20, 1_000 + i * 10] as [number, number]));
    expect(evaluatePartitionStatus({ samples: draining, nowMs: FRESH })).toBe('OK');
    expect(evaluatePartitionStatus({ samples: draining, nowMs: 60_000 })).toBe('STOP');
  });

  it('is STOP before STALL when a stalled consumer also stopped committing', () => {
    const samples = steady({ step: 0, lag: 50 });
    expect(evaluatePartitionStatus({ samples, nowMs: FRESH })).toBe('STALL');
    expect(evaluatePartitionStatus({ samples, nowMs: 100_000 })).toBe('STOP');
  });

  it('is STALL when every committed offset in the window is equal', () => {
    expect(evaluatePartitionStatus({ samples: steady({ step: 0, lag: 50 }), nowMs: FRESH })).toBe('STALL');
    // even if the log end does not move (lag constant) and even with growing lag
    expect(evaluatePartitionStatus({ samples: steady({ step: 0, lag: 50, growth: 7 }), nowMs: FRESH })).toBe('STALL');
  });

  it('is WARN when the lag never decreased, constant steps included', () => {
    expect(evaluatePartitionStatus({ samples: steady({ step: 10, lag: 50, growth: 5 }), nowMs: FRESH })).toBe('WARN');
    expect(evaluatePartitionStatus({ samples: steady({ step: 10, lag: 50 }), nowMs: FRESH })).toBe('WARN');
  });

  it('is OK when the lag decreased at least once', () => {
    const samples = steady({ step: 10, lag: 50, growth: 5 }).map((s, i) =>
      i === 6 ? { ...s, logEndOffset: s.logEndOffset - 20 } : s,
    );
    expect(evaluatePartitionStatus({ samples, nowMs: FRESH })).toBe('OK');
  });

  it('evaluates the whole window given, not only the last minSamples entries', () => {
    // Eleven entries; only the first has lag 0: with minSamples 10 the window is still all eleven.
    const samples = windowOf([[0, 0], ...Array.from({ length: 10 }, (_, i) => [i, 100 + 2 * i] as [number, number])]);
    expect(evaluatePartitionStatus({ samples, nowMs: 11_000 })).toBe('OK');
    expect(evaluatePartitionStatus({ samples: samples.slice(1), nowMs: 11_000 })).toBe('WARN');
  });

  it('rejects unordered or invalid input', () => {
    const swapped = steady({ step: 1, lag: 5 });
    [swapped[3], swapped[4]] = [swapped[4] as CommitSample, swapped[3] as CommitSample];
    expect(() => evaluatePartitionStatus({ samples: swapped, nowMs: FRESH })).toThrow(RangeError);
    const nan = steady({ step: 1, lag: 5 }).map((s, i) => (i === 2 ? { ...s, logEndOffset: Number.NaN } : s));
    expect(() => evaluatePartitionStatus({ samples: nan, nowMs: FRESH })).toThrow(RangeError);
    expect(() => evaluatePartitionStatus({ samples: [], nowMs: Number.NaN })).toThrow(RangeError);
    expect(() => evaluatePartitionStatus({ samples: [], nowMs: 0, allowedLag: -1 })).toThrow(RangeError);
    expect(() => evaluatePartitionStatus({ samples: [], nowMs: 0, minSamples: 0 })).toThrow(RangeError);
    expect(() => evaluatePartitionStatus({ samples: [], nowMs: 0, minSamples: 1.5 })).toThrow(RangeError);
  });
});

describe('combineGroupStatus', () => {
  const ps = (partition: number, status: PartitionStatus, topic = 'orders') => ({ topic, partition, status });
  const q = (partition: number, topic = 'orders') => ({ topic, partition });
  const base = { quarantinedPartitions: [], worstTimeLagMs: null, timeLagObjectiveMs: null };

  it('is OK when every partition is OK, saying so', () => {
    const result = combineGroupStatus({ ...base, partitionStatuses: [ps(0, 'OK'), ps(1, 'OK')] });
    expect(result).toEqual({ status: 'OK', reasons: ['all 2 partitions OK'] });
    expect(combineGroupStatus({ ...base, partitionStatuses: [] }).status).toBe('OK');
  });

  it.each(['STOP', 'STALL', 'REWIND'] as const)('reports %s as ERR naming the partition', (status) => {
    const result = combineGroupStatus({ ...base, partitionStatuses: [ps(0, 'OK'), ps(3, status)] });
    expect(result.status).toBe('ERR');
    expect(result.reasons).toHaveLength(1);
    expect(result.reasons[0]).toMatch(new RegExp(`^orders-3 ${status}`));
  });

  it('is WARN for a WARN partition', () => {
    const result = combineGroupStatus({ ...base, partitionStatuses: [ps(0, 'WARN'), ps(1, 'OK')] });
    expect(result.status).toBe('WARN');
    expect(result.reasons).toEqual(['orders-0 WARN: lag grew at every commit in the window']);
  });

  it('is WARN when the worst time lag is above the objective, OK when equal to it', () => {
    const statuses = [ps(0, 'OK')];
    const above = combineGroupStatus({
      ...base,
      partitionStatuses: statuses,
      worstTimeLagMs: 301_000,
      timeLagObjectiveMs: 300_000,
    });
    expect(above).toEqual({ status: 'WARN', reasons: ['worst time lag 5 min 1 s is above the 5 min objective'] });
    const equal = combineGroupStatus({
      ...base,
      partitionStatuses: statuses,
      worstTimeLagMs: 300_000,
      timeLagObjectiveMs: 300_000,
    });
    expect(equal).toEqual({
      status: 'OK',
      reasons: ['all 1 partitions OK', 'worst time lag 5 min is within the 5 min objective'],
    });
  });

  it('ignores the time lag without an objective, and never escalates an unknown time lag', () => {
    expect(combineGroupStatus({ ...base, partitionStatuses: [ps(0, 'OK')], worstTimeLagMs: 9_999_999 }).status).toBe(
      'OK',
    );
    const unknown = combineGroupStatus({ ...base, partitionStatuses: [ps(0, 'OK')], timeLagObjectiveMs: 60_000 });
    expect(unknown).toEqual({
      status: 'OK',
      reasons: ['all 1 partitions OK', 'time lag unknown; objective 1 min not checked'],
    });
  });

  it('is QUARANTINED over WARN, and the quarantine explains that partition STALL/STOP/WARN', () => {
    for (const status of ['STALL', 'STOP', 'WARN', 'OK'] as const) {
      const result = combineGroupStatus({
        ...base,
        partitionStatuses: [ps(0, 'WARN'), ps(1, status)],
        quarantinedPartitions: [q(1)],
      });
      expect(result.status, status).toBe('QUARANTINED');
      expect(result.reasons[0], status).toMatch(/^orders-1 is quarantined/);
      expect(result.reasons[1]).toBe('orders-0 WARN: lag grew at every commit in the window');
    }
    const explained = combineGroupStatus({
      ...base,
      partitionStatuses: [ps(1, 'STALL')],
      quarantinedPartitions: [q(1)],
    });
    expect(explained.reasons).toEqual(['orders-1 is quarantined (its STALL is explained by the quarantine)']);
  });

  it('is ERR over QUARANTINED when another partition is stopped, keeping both reasons', () => {
    const result = combineGroupStatus({
      ...base,
      partitionStatuses: [ps(0, 'STOP'), ps(1, 'STALL')],
      quarantinedPartitions: [q(1)],
      worstTimeLagMs: 600_000,
      timeLagObjectiveMs: 60_000,
    });
    expect(result.status).toBe('ERR');
    expect(result.reasons).toEqual([
      'orders-0 STOP: the consumer stopped committing while lagging',
      'orders-1 is quarantined (its STALL is explained by the quarantine)',
      'worst time lag 10 min is above the 1 min objective',
    ]);
  });

  it('keeps REWIND as ERR even on a quarantined partition (a quarantine never moves a commit back)', () => {
    const result = combineGroupStatus({ ...base, partitionStatuses: [ps(2, 'REWIND')], quarantinedPartitions: [q(2)] });
    expect(result.status).toBe('ERR');
  });

  it('distinguishes topics with the same partition number and orders reasons by topic and partition', () => {
    const result = combineGroupStatus({
      ...base,
      partitionStatuses: [ps(5, 'STALL', 'b'), ps(0, 'STALL', 'b'), ps(0, 'STOP', 'a')],
      quarantinedPartitions: [q(0, 'b')],
    });
    expect(result.status).toBe('ERR');
    expect(result.reasons.map((r) => r.split(' ')[0])).toEqual(['a-0', 'b-5', 'b-0']);
  });

  it('rejects negative or non-finite times', () => {
    expect(() => combineGroupStatus({ ...base, partitionStatuses: [], worstTimeLagMs: -1 })).toThrow(RangeError);
    expect(() => combineGroupStatus({ ...base, partitionStatuses: [], timeLagObjectiveMs: Number.NaN })).toThrow(
      RangeError,
    );
  });
});
