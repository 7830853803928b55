import { describe, expect, it } from 'vitest';
import { retentionRisk, type PartitionPosition, type TopicRetentionSettings } from './retention-risk';

const HOUR = 3_600_000;
const MIN = 60_000;

const threeHourTopic: TopicRetentionSettings = {
  cleanupPolicy: 'delete',
  retentionMs: 3 * HOUR,
  retentionBytes: -1,
  segmentMs: 30 * MIN,
  segmentBytes: 1_073_741_824,
  checkIntervalMs: 5 * MIN,
  recordBytes: null,
  readError: null,
};

const stopped: PartitionPosition = {
  committedOffset: 1_000n,
  logStartOffset: 0n,
  logEndOffset: 5_000n,
  timeLagMs: 20 * MIN,
  timeLagKind: 'exact',
  arrivalRatePerSec: 10,
  consumptionRatePerSec: 0,
};

describe('retentionRisk by time', () => {
  it('a stopped group: from retention minus the age, at the latest plus one segment and one check', () => {
    expect(retentionRisk(threeHourTopic, stopped)).toEqual({
      kind: 'at-risk',
      earliestMs: 2 * HOUR + 40 * MIN,
      latestMs: 3 * HOUR + 15 * MIN,
      rules: ['time'],
      basis:
        'time retention: oldest unread record 20 min old of 3 h, ageing 1 s per second (nothing read); its segment closes within 30 min and the broker checks every 5 min',
      alsoCompacted: false,
    });
  });

  it('a group reading at half the arrival rate ages half as fast: twice as long', () => {
    const risk = retentionRisk(threeHourTopic, { ...stopped, consumptionRatePerSec: 5 });
    expect(risk).toMatchObject({
      kind: 'at-risk',
      earliestMs: 2 * (2 * HOUR + 40 * MIN),
      latestMs: 2 * (3 * HOUR + 15 * MIN),
    });
  });

  it('a group keeping pace with records younger than the limit is not at risk; one already that old is', () => {
    expect(retentionRisk(threeHourTopic, { ...stopped, consumptionRatePerSec: 10 })).toEqual({
      kind: 'keeping-pace',
      oldestUnreadAgeMs: 20 * MIN,
      retentionMs: 3 * HOUR,
    });
    expect(
      retentionRisk(threeHourTopic, { ...stopped, consumptionRatePerSec: 12, timeLagMs: 3 * HOUR + MIN }),
    ).toMatchObject({ kind: 'at-risk', earliestMs: 0, latestMs: null });
  });

  it('an age known only as a lower bound bounds the deletion from above only', () => {
    expect(retentionRisk(threeHourTopic, { ...stopped, timeLagKind: 'lower-bound' })).toMatchObject({
      kind: 'at-risk',
      earliestMs: null,
      latestMs: 3 * HOUR + 15 * MIN,
    });
  });

  it('an unknown age or unknown rates make it unknown, never safe', () => {
    expect(retentionRisk(threeHourTopic, { ...stopped, timeLagMs: null, timeLagKind: 'unknown' })).toEqual({
      kind: 'unknown',
      reason: 'the age of its oldest unread record is not known yet',
    });
    expect(retentionRisk(threeHourTopic, { ...stopped, consumptionRatePerSec: null })).toEqual({
      kind: 'unknown',
      reason: 'its rates are not known yet',
    });
  });
});

describe('retentionRisk by size', () => {
  const sizeTopic: TopicRetentionSettings = {
    ...threeHourTopic,
    retentionMs: -1,
    retentionBytes: 1_000_000,
    segmentBytes: 100_000,
    recordBytes: 100,
  };

  it('unread bytes grow at the arrival rate: from when they reach the limit to one segment later', () => {
    // 4,000 unread records x 100 B = 400,000 B of 1,000,000; growing 10 records/s = 1,000 B/s.
    expect(retentionRisk(sizeTopic, stopped)).toEqual({
      kind: 'at-risk',
      earliestMs: 600_000,
      latestMs: 700_000 + 5 * MIN,
      rules: ['size'],
      basis:
        'size retention: 390.6 KiB unread of 976.6 KiB kept per partition (records of about 100 B, segments of 97.7 KiB), growing 1000 B/s',
      alsoCompacted: false,
    });
  });

  it('without a record size it is unknown', () => {
    expect(retentionRisk({ ...sizeTopic, recordBytes: null }, stopped)).toEqual({
      kind: 'unknown',
      reason: 'the size of its records is not known yet (no record read)',
    });
  });

  it('with both limits, the sooner rule wins and the basis names both', () => {
    const both = retentionRisk({ ...sizeTopic, retentionMs: 3 * HOUR }, stopped);
    expect(both).toMatchObject({
      kind: 'at-risk',
      earliestMs: 600_000,
      latestMs: 700_000 + 5 * MIN,
      rules: ['time', 'size'],
    });
  });
});

describe('retentionRisk: what is not a window', () => {
  it('a committed offset below the log start is a loss with its range', () => {
    expect(retentionRisk(threeHourTopic, { ...stopped, logStartOffset: 1_204n + 1_000n })).toEqual({
      kind: 'lost',
      fromOffset: 1_000n,
      toOffset: 2_203n,
      count: 1_204n,
    });
  });

  it('nothing unread, never committed, no limit, compaction, unreadable settings', () => {
    expect(retentionRisk(threeHourTopic, { ...stopped, committedOffset: 5_000n })).toEqual({ kind: 'caught-up' });
    expect(retentionRisk(threeHourTopic, { ...stopped, committedOffset: null })).toEqual({ kind: 'not-committed' });
    expect(retentionRisk({ ...threeHourTopic, retentionMs: -1 }, stopped)).toEqual({ kind: 'unlimited' });
    expect(retentionRisk({ ...threeHourTopic, cleanupPolicy: 'compact' }, stopped)).toEqual({ kind: 'compacted' });
    expect(retentionRisk({ ...threeHourTopic, cleanupPolicy: 'compact,delete' }, stopped)).toMatchObject({
      kind: 'at-risk',
      alsoCompacted: true,
    });
    const denied = { ...threeHourTopic, readError: 'not authorized to describe the configs of orders' };
    expect(retentionRisk(denied, stopped)).toEqual({
      kind: 'unknown',
      reason: 'not authorized to describe the configs of orders',
    });
  });
});
