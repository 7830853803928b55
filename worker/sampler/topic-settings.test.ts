import { describe, expect, it } from 'vitest';
import { ManualClock } from '@warden/consumer/testing';
import type { TopicSettingsRead } from '../../lib/kafka/cluster-reader';
import { retentionRisk } from '../../lib/lag/retention-risk';
import {
  parseTopicConfigs,
  positionFromSample,
  READ_AT_MIN_INTERVAL_MS,
  RETRY_AFTER_FAILURE_MS,
  TopicSettingsTracker,
  type TopicRetentionRow,
} from './topic-settings';

const MIN = 60_000;

const configs = (retentionMs: string, extra: Record<string, string | null> = {}) => ({
  'cleanup.policy': 'delete',
  'retention.ms': retentionMs,
  'retention.bytes': '-1',
  'segment.ms': '604800000',
  'segment.bytes': '1073741824',
  ...extra,
});

function read(
  topics: Record<string, Record<string, string | null> | string>,
  checkIntervalMs: number | null = 300_000,
): TopicSettingsRead {
  return {
    topics: Object.entries(topics).map(([topic, value]) =>
      typeof value === 'string' ? { topic, configs: null, error: value } : { topic, configs: value, error: null },
    ),
    retentionCheckIntervalMs: checkIntervalMs,
    brokerError: checkIntervalMs === null ? 'not authorized to describe the configs of broker 1' : null,
  };
}

describe('parseTopicConfigs', () => {
  it('parses integers (as bigints, so no limit loses precision) and leaves anything else null', () => {
    expect(
      parseTopicConfigs({
        'cleanup.policy': '[compact, delete]',
        'retention.ms': '9223372036854775807',
        'retention.bytes': '-1',
        'segment.ms': 'soon',
        'segment.bytes': null,
      }),
    ).toEqual({
      cleanupPolicy: 'compact,delete',
      retentionMs: 9_223_372_036_854_775_807n,
      retentionBytes: -1n,
      segmentMs: null,
      segmentBytes: null,
      readError: null,
    });
  });
});

describe('TopicSettingsTracker', () => {
  it('reads every topic once per interval and a new topic in the round it appears', () => {
    const clock = new ManualClock(1_000_000);
    const tracker = new TopicSettingsTracker({ intervalMs: MIN });
    const first = tracker.plan(['orders', 'payments'], clock.now());
    expect(first).toEqual({ topics: ['orders', 'payments'], full: true });
    tracker.accept(first, read({ orders: configs('3600000'), payments: configs('7200000') }), clock.now());

    clock.advance(5_000);
    expect(tracker.plan(['orders', 'payments'], clock.now())).toEqual({ topics: [], full: false });
    expect(tracker.plan(['orders', 'payments', 'refunds'], clock.now())).toEqual({ topics: ['refunds'], full: false });

    clock.advance(MIN - 5_000);
    expect(tracker.plan(['orders', 'payments'], clock.now())).toEqual({ topics: ['orders', 'payments'], full: true });
  });

  it('after a failed request keeps the settings it had and waits before asking again', () => {
    const clock = new ManualClock(0);
    const tracker = new TopicSettingsTracker({ intervalMs: MIN });
    const first = tracker.plan(['orders'], clock.now());
    tracker.accept(first, read({ orders: configs('3600000') }), clock.now());
    clock.advance(MIN);
    tracker.plan(['orders'], clock.now());
    tracker.failed(clock.now());
    expect(tracker.settingsOf('orders')).toMatchObject({ retentionMs: 3_600_000, readError: null });
    clock.advance(RETRY_AFTER_FAILURE_MS - 1);
    expect(tracker.plan(['orders'], clock.now()).topics).toEqual([]);
    clock.advance(1);
    expect(tracker.plan(['orders'], clock.now())).toEqual({ topics: ['orders'], full: true });
  });

  it('gives a refused topic its refusal and nothing else, which the rule never takes as safe', () => {
    const tracker = new TopicSettingsTracker({ intervalMs: MIN });
    const plan = tracker.plan(['orders'], 0);
    const refusal = 'not authorized to describe the configs of topic orders (TOPIC_AUTHORIZATION_FAILED)';
    tracker.accept(plan, read({ orders: refusal }), 0);
    const settings = tracker.settingsOf('orders');
    expect(settings).toEqual({
      cleanupPolicy: null,
      retentionMs: null,
      retentionBytes: null,
      segmentMs: null,
      segmentBytes: null,
      checkIntervalMs: null,
      recordBytes: null,
      readError: refusal,
    });
    const risk = retentionRisk(settings!, {
      committedOffset: 10n,
      logStartOffset: 0n,
      logEndOffset: 20n,
      timeLagMs: 1_000,
      timeLagKind: 'exact',
      arrivalRatePerSec: 1,
      consumptionRatePerSec: 0,
    });
    expect(risk).toEqual({ kind: 'unknown', reason: refusal });
    tracker.loadStored([]);
    expect(tracker.changes()).toEqual([
      expect.objectContaining({ topic: 'orders', readError: refusal, retentionMs: null, checkIntervalMs: null }),
    ]);
  });

  it('keeps the last broker check interval when the brokers cannot be read', () => {
    const tracker = new TopicSettingsTracker({ intervalMs: 0 });
    tracker.accept(tracker.plan(['orders'], 0), read({ orders: configs('1000') }, 5_000), 0);
    tracker.accept(tracker.plan(['orders'], 1), read({ orders: configs('1000') }, null), 1);
    expect(tracker.settingsOf('orders')?.checkIntervalMs).toBe(5_000);
  });

  it('keeps a running average of record sizes per topic, seeded by the stored one', () => {
    const tracker = new TopicSettingsTracker({ intervalMs: MIN });
    tracker.accept(tracker.plan(['orders', 'payments'], 0), read({ orders: configs('1'), payments: configs('1') }), 0);
    expect(tracker.settingsOf('orders')?.recordBytes).toBeNull();
    const sample = (topic: string, bytes: number, records: number) => ({
      topic,
      partition: 0,
      offset: 0n,
      timestampMs: 0,
      recordSize: { bytes, records },
    });
    tracker.observeRecordSizes([sample('orders', 300, 3), sample('orders', 500, 1)]);
    expect(tracker.settingsOf('orders')?.recordBytes).toBe(200);
    // A read without a measurable record changes nothing.
    tracker.observeRecordSizes([{ topic: 'orders', partition: 0, offset: 1n, timestampMs: null, recordSize: null }]);
    expect(tracker.settingsOf('orders')?.recordBytes).toBe(200);

    const stored = (topic: string, recordBytes: number | null): TopicRetentionRow => ({
      topic,
      cleanupPolicy: 'delete',
      retentionMs: 1n,
      retentionBytes: -1n,
      segmentMs: 604_800_000n,
      segmentBytes: 1_073_741_824n,
      checkIntervalMs: 300_000n,
      readError: null,
      recordBytes,
      readAt: new Date(0),
      changedAt: new Date(0),
    });
    tracker.loadStored([stored('orders', 1_000), stored('payments', 1_000)]);
    expect(tracker.settingsOf('orders')?.recordBytes).toBe(200); // what it measured itself wins
    expect(tracker.settingsOf('payments')?.recordBytes).toBe(1_000);
    tracker.observeRecordSizes([sample('payments', 2_000 * 100, 100)]); // the stored average counts as 100 records
    expect(tracker.settingsOf('payments')?.recordBytes).toBe(1_500);
  });

  it('writes a row when new or changed, read_at at most once a minute, record bytes when they move', () => {
    const clock = new ManualClock(10 * MIN);
    const tracker = new TopicSettingsTracker({ intervalMs: 30_000 });
    const round = (retentionMs: string) => {
      const plan = tracker.plan(['orders'], clock.now());
      if (plan.topics.length > 0) tracker.accept(plan, read({ orders: configs(retentionMs) }), clock.now());
      const rows = tracker.changes();
      tracker.confirmStored(rows);
      return rows;
    };
    expect(round('3600000')).toEqual([]); // nothing known of Postgres yet: no guess
    expect(tracker.needsStored).toBe(true);
    tracker.loadStored([]);
    const first = round('3600000');
    expect(first).toEqual([
      {
        topic: 'orders',
        cleanupPolicy: 'delete',
        retentionMs: 3_600_000n,
        retentionBytes: -1n,
        segmentMs: 604_800_000n,
        segmentBytes: 1_073_741_824n,
        checkIntervalMs: 300_000n,
        readError: null,
        recordBytes: null,
        readAt: new Date(10 * MIN),
        changedAt: new Date(10 * MIN),
      },
    ]);
    clock.advance(5_000);
    expect(round('3600000')).toEqual([]);
    clock.advance(25_000); // read again (30 s interval), but read_at is not a minute old
    expect(round('3600000')).toEqual([]);
    clock.advance(30_000);
    expect(round('3600000')).toEqual([
      expect.objectContaining({ readAt: new Date(11 * MIN), changedAt: new Date(10 * MIN) }),
    ]);
    clock.advance(30_000);
    expect(round('7200000')).toEqual([
      expect.objectContaining({
        retentionMs: 7_200_000n,
        readAt: new Date(11.5 * MIN),
        changedAt: new Date(11.5 * MIN),
      }),
    ]);

    const sample = (bytes: number) => [
      { topic: 'orders', partition: 0, offset: 0n, timestampMs: 0, recordSize: { bytes, records: 1 } },
    ];
    clock.advance(1_000);
    tracker.observeRecordSizes(sample(100));
    expect(round('7200000')).toEqual([
      expect.objectContaining({ recordBytes: 100, readAt: new Date(11.5 * MIN), changedAt: new Date(11.5 * MIN) }),
    ]);
    tracker.observeRecordSizes(sample(110)); // 105 on average: within 10 % of 100
    expect(round('7200000')).toEqual([]);
    tracker.observeRecordSizes(sample(200)); // 136.7: more than 10 % away
    expect(round('7200000')).toEqual([expect.objectContaining({ recordBytes: (100 + 110 + 200) / 3 })]);
    expect(READ_AT_MIN_INTERVAL_MS).toBe(MIN);
  });

  it('forgets topics no group reads any more, and reads one that comes back at once', () => {
    const tracker = new TopicSettingsTracker({ intervalMs: MIN });
    tracker.accept(tracker.plan(['orders'], 0), read({ orders: configs('1') }), 0);
    tracker.retainOnly([]);
    expect(tracker.settingsOf('orders')).toBeNull();
    expect(tracker.plan(['orders'], 1)).toEqual({ topics: ['orders'], full: false });
  });

  it('refuses a negative interval', () => {
    expect(() => new TopicSettingsTracker({ intervalMs: -1 })).toThrow(RangeError);
  });
});

describe('the rows as the retention rule reads them', () => {
  it('takes the exact age where it was read, else the estimate and its kind', () => {
    const row = {
      committedOffset: 5n,
      logStartOffset: 0n,
      logEndOffset: 9n,
      timeLagMs: 4_000n,
      timeLagKind: 'interpolated',
      exactTimeLagMs: 4_500n,
      arrivalRatePerSec: 2,
      consumptionRatePerSec: 0,
    };
    expect(positionFromSample(row)).toEqual({
      committedOffset: 5n,
      logStartOffset: 0n,
      logEndOffset: 9n,
      timeLagMs: 4_500,
      timeLagKind: 'exact',
      arrivalRatePerSec: 2,
      consumptionRatePerSec: 0,
    });
    expect(positionFromSample({ ...row, exactTimeLagMs: null })).toMatchObject({
      timeLagMs: 4_000,
      timeLagKind: 'interpolated',
    });
    expect(positionFromSample({ ...row, exactTimeLagMs: null, timeLagKind: 'bogus' })).toMatchObject({
      timeLagMs: null,
      timeLagKind: 'unknown',
    });
  });
});
