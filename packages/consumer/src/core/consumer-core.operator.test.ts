import { describe, expect, it } from 'vitest';
import type { QuarantineClearReason, TopicPartition } from './types.js';
import { createHarness, makeRecord, makeRecords, tp } from './testing/harness.js';

function quarantinedHarness() {
  const cleared: Array<[TopicPartition, QuarantineClearReason]> = [];
  const h = createHarness({
    ordering: 'partition',
    onQuarantineCleared: (partition, reason) => {
      cleared.push([partition, reason]);
    },
  });
  h.core.deliver([makeRecord(0), makeRecord(1, { invalid: true }), makeRecord(2)]);
  return { h, cleared };
}

describe('ConsumerCore operator actions', () => {
  it('resumeQuarantined retries the record: seek to it, resume, admit it again', async () => {
    const { h, cleared } = quarantinedHarness();
    await h.succeed(0);
    const result = h.core.resumeQuarantined(tp());
    expect(result).toEqual({ topic: 'events', partition: 0, action: 'resumed', seekOffset: '1' });
    expect(h.source.seeks(tp())).toEqual(['1', '1']);
    expect(h.source.isPaused(tp())).toBe(false);
    expect(cleared).toEqual([[tp(), 'resumed']]);
    expect(h.partitionSnapshot().quarantine).toBeNull();

    // The fixed record is redelivered (for example after the producer corrected its key).
    h.core.deliver([makeRecord(1), makeRecord(2)]);
    expect(h.started()).toEqual(['0', '1']);
    await h.succeed(1);
    await h.succeed(2);
    await h.core.commitNow();
    expect(h.source.committed(tp())?.offset).toBe('3');
  });

  it('resumeQuarantined on a still-bad record quarantines it again', () => {
    const { h } = quarantinedHarness();
    h.core.resumeQuarantined(tp());
    h.core.deliver([makeRecord(1, { invalid: true }), makeRecord(2)]);
    expect(h.partitionSnapshot().quarantine?.offset).toBe('1');
    expect(h.core.snapshot().counters.quarantines).toBe(2);
  });

  it('skipQuarantined completes the record without processing so the commit moves past it', async () => {
    const { h, cleared } = quarantinedHarness();
    const result = h.core.skipQuarantined(tp());
    expect(result.seekOffset).toBe('2');
    expect(h.source.seeks(tp())).toEqual(['1', '2']);
    expect(h.source.isPaused(tp())).toBe(false);
    expect(cleared).toEqual([[tp(), 'skipped']]);
    await h.succeed(0);
    await h.core.commitNow();
    expect(h.source.committed(tp())?.offset).toBe('2');
    h.core.deliver([makeRecord(2)]);
    expect(h.started()).toEqual(['0', '2']);
    expect(h.core.snapshot().counters.skippedByOperator).toBe(1);
  });

  it('skipQuarantined after a rebalance rewound past the record skips it on redelivery', async () => {
    const { h } = quarantinedHarness();
    await h.core.onRebalanceStart();
    h.core.onAssignment([tp()]);
    const result = h.core.skipQuarantined(tp());
    expect(result.seekOffset).toBe('0');
    h.core.deliver([makeRecord(0), makeRecord(1, { invalid: true }), makeRecord(2)]);
    expect(h.partitionSnapshot().quarantine).toBeNull();
    expect(h.core.snapshot().counters.skippedByOperator).toBe(1);
  });

  it('seekQuarantined clears the partition state and continues at the given offset', async () => {
    const { h, cleared } = quarantinedHarness();
    const result = h.core.seekQuarantined(tp(), '50');
    expect(result).toEqual({ topic: 'events', partition: 0, action: 'seeked', seekOffset: '50' });
    expect(h.source.seeks(tp()).at(-1)).toBe('50');
    expect(cleared).toEqual([[tp(), 'seeked']]);
    expect(h.partitionSnapshot()).toMatchObject({ deliveredCount: 0, quarantine: null });
    await h.succeed(0); // the old in-flight record no longer matters
    expect(h.eventsOf('late-completion-ignored')).toHaveLength(1);
    expect(h.core.deliver(makeRecords(48, 4))).toEqual({ accepted: 2, ignored: 2, dropped: 0 });
    await h.succeed(50);
    await h.core.commitNow();
    expect(h.source.committed(tp())?.offset).toBe('51');
  });

  it('refuses actions on partitions that are not owned or not quarantined, and invalid offsets', () => {
    const { h } = quarantinedHarness();
    expect(() => h.core.resumeQuarantined(tp(7))).toThrow(/events\[7\] is not owned/);
    expect(() => h.core.seekQuarantined(tp(), '-3')).toThrow(/not an int64 offset/);
    h.core.skipQuarantined(tp());
    expect(() => h.core.skipQuarantined(tp())).toThrow(/events\[0\] is not quarantined/);
    expect(() => h.core.resumeQuarantined(tp())).toThrow(/not quarantined/);
  });

  it('a failing seek while lifting a quarantine makes the core fatal and the action throw', () => {
    const { h } = quarantinedHarness();
    h.source.failNext.seek = new Error('consumer not running');
    expect(() => h.core.resumeQuarantined(tp())).toThrow(/seek .* failed/);
    expect(h.core.isFatal()).toBe(true);
    expect(h.source.isPaused(tp())).toBe(true);
  });
});
