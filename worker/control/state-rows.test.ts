import { describe, expect, it } from 'vitest';
import { coreSnapshotOf, partitionSnapshotOf } from '@warden/consumer/testing';
import type { PartitionSnapshot } from '@warden/consumer';
import { buildConsumerStateRows } from './consumer-state-rows';

const partition = (overrides: Partial<PartitionSnapshot>) => partitionSnapshotOf(overrides);
const snapshot = (partitions: PartitionSnapshot[]) => coreSnapshotOf(partitions, { inFlight: 0 });

const at = new Date('2026-11-29T12:00:00Z');
const identity = { groupId: 'warden-pipeline', instanceId: 'warden@host/1' };

describe('buildConsumerStateRows', () => {
  it('writes where the commit prefix stands and what holds it back', () => {
    const rows = buildConsumerStateRows(
      snapshot([
        partition({
          partition: 3,
          watermark: '120',
          highestCompleted: '130',
          inFlight: 2,
          completedUncommitted: 7,
          buffered: 4,
          bufferedBytes: 2_048,
          oldestUnfinishedOffset: '120',
          oldestUnfinishedAgeMs: 1_500,
        }),
      ]),
      identity,
      at,
    );
    expect(rows).toEqual([
      {
        groupId: 'warden-pipeline',
        topic: 'in',
        partition: 3,
        instanceId: 'warden@host/1',
        sampledAt: at,
        watermark: 120n,
        highestCompleted: 130n,
        inFlight: 2,
        completedUncommitted: 7,
        buffered: 4,
        bufferedBytes: 2_048,
        oldestUnfinishedOffset: 120n,
        oldestUnfinishedAgeMs: 1_500,
        paused: false,
      },
    ]);
  });

  it('keeps nulls of a partition with nothing committed or delivered yet', () => {
    const [row] = buildConsumerStateRows(snapshot([partition({})]), identity, at);
    expect(row).toMatchObject({
      watermark: null,
      highestCompleted: null,
      oldestUnfinishedOffset: null,
      oldestUnfinishedAgeMs: null,
    });
  });

  it('counts a quarantine as paused, and clamps values the int4 columns cannot hold', () => {
    const quarantine = {
      topic: 'in',
      partition: 0,
      offset: '5',
      reason: 'bad',
      errorClass: 'decode',
      sinceMs: 1,
      attempts: 0,
      key: null,
      value: null,
      headers: {},
      timestampMs: 0,
    };
    const [row] = buildConsumerStateRows(
      snapshot([partition({ quarantine, bufferedBytes: 5e12, oldestUnfinishedAgeMs: Number.POSITIVE_INFINITY })]),
      identity,
      at,
    );
    expect(row).toMatchObject({ paused: true, bufferedBytes: 2_147_483_647, oldestUnfinishedAgeMs: 2_147_483_647 });
  });

  it('keeps int64 offsets exact', () => {
    const [row] = buildConsumerStateRows(snapshot([partition({ watermark: '9223372036854775000' })]), identity, at);
    expect(row?.watermark).toBe(9223372036854775000n);
  });
});
