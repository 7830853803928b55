import { describe, expect, it } from 'vitest';
import {
  holdDetails,
  instanceRow,
  measuredRebalanceRow,
  partitionStateRows,
  storageProblem,
  withoutNul,
} from './state-rows';
import { holdOf, instanceStateOf, outcomeOf, partitionStateOf, rebalanceStopOf } from './testing/instance-states';

const publishedAt = new Date('2026-12-07T10:05:00Z');

describe('partitionStateRows', () => {
  it('writes where the commit prefix stands and what holds it back, as measured when published', () => {
    const rows = partitionStateRows(
      instanceStateOf({
        partitions: [
          partitionStateOf({
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
        ],
      }),
      'eu',
    );
    expect(rows).toEqual([
      {
        cluster: 'eu',
        groupId: 'orders',
        topic: 'orders',
        partition: 3,
        instanceId: 'orders-svc@pod-1/7',
        sampledAt: publishedAt,
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
    const [row] = partitionStateRows(instanceStateOf({ partitions: [partitionStateOf({})] }), 'default');
    expect(row).toMatchObject({
      watermark: null,
      highestCompleted: null,
      oldestUnfinishedOffset: null,
      oldestUnfinishedAgeMs: null,
    });
  });

  it('counts a held partition as paused, and clamps values the int4 columns cannot hold', () => {
    const [held, other] = partitionStateRows(
      instanceStateOf({
        partitions: [
          partitionStateOf({ partition: 0, bufferedBytes: 5e12, oldestUnfinishedAgeMs: 9e15 }),
          partitionStateOf({ partition: 1 }),
        ],
        holds: [holdOf({ partition: 0 })],
      }),
      'default',
    );
    expect(held).toMatchObject({ paused: true, bufferedBytes: 2_147_483_647, oldestUnfinishedAgeMs: 2_147_483_647 });
    expect(other?.paused).toBe(false);
  });

  it('keeps int64 offsets exact', () => {
    const [row] = partitionStateRows(
      instanceStateOf({ partitions: [partitionStateOf({ watermark: '9223372036854775000' })] }),
      'default',
    );
    expect(row?.watermark).toBe(9223372036854775000n);
  });
});

describe('instanceRow', () => {
  it('names the instance, its report and its newest refusal', () => {
    const row = instanceRow(
      instanceStateOf({
        assignment: [{ topic: 'orders', partition: 2 }],
        refused: {
          count: 3,
          recent: [
            { atMs: 2, commandId: 'c-2', reason: 'signature does not match' },
            { atMs: 1, commandId: null, reason: 'not JSON' },
          ],
        },
      }),
      'eu',
    );
    expect(row).toMatchObject({
      cluster: 'eu',
      groupId: 'orders',
      instanceId: 'orders-svc@pod-1/7',
      reportedAt: publishedAt,
      startedAt: new Date('2026-12-07T10:00:00Z'),
      status: 'running',
      assignment: [{ topic: 'orders', partition: 2 }],
      refusedCommands: 3,
      lastRefusal: 'command c-2: signature does not match',
    });
    expect(instanceRow(instanceStateOf(), 'eu').lastRefusal).toBeNull();
  });

  it('clamps counts past the int4 columns', () => {
    const row = instanceRow(instanceStateOf({ pid: 2 ** 40, refused: { count: 2 ** 40, recent: [] } }), 'default');
    expect(row).toMatchObject({ pid: 2_147_483_647, refusedCommands: 2_147_483_647 });
  });
});

describe('holdDetails', () => {
  it('escapes and caps the previews again, whatever the instance sent', () => {
    const details = holdDetails(
      holdOf({ key: 'a\u001bb', value: 'x'.repeat(2_049), headers: { trace: 'ok', empty: null } }),
      'svc@pod/1',
    );
    expect(details).toMatchObject({
      recordKey: 'a\\u001bb',
      recordHeaders: { trace: 'ok', empty: null },
      heldBy: 'svc@pod/1',
      heldSince: new Date('2026-12-07T10:04:00Z'),
    });
    expect(details.recordPreview).toBe(`${'x'.repeat(2_048)}…`);
    // Already escaped and capped text stays as it is.
    expect(holdDetails(holdOf({ value: details.recordPreview }), 'svc').recordPreview).toBe(details.recordPreview);
  });
});

describe('measuredRebalanceRow', () => {
  const reporter = { cluster: 'eu', groupId: 'orders', instanceId: 'orders-svc@pod-1/7' };

  it('records the measured stop of the member, its assignment before and after, and what moved', () => {
    const row = measuredRebalanceRow(
      rebalanceStopOf({
        memberId: 'm-1',
        startedAtMs: 1_000,
        endedAtMs: 1_250,
        assignmentBefore: [
          { topic: 'in', partition: 1 },
          { topic: 'in', partition: 0 },
        ],
        assignmentAfter: [{ topic: 'in', partition: 0 }],
      }),
      reporter,
      { clientId: 'orders-svc', clientHost: '/10.0.0.7' },
    );
    expect(row).toEqual({
      cluster: 'eu',
      groupId: 'orders',
      source: 'own-consumer',
      startedAt: new Date(1_000),
      endedAt: new Date(1_250),
      durationMs: 250,
      durationIsBound: false,
      membersBefore: [{ memberId: 'm-1', clientId: 'orders-svc', clientHost: '/10.0.0.7', assignment: { in: [0, 1] } }],
      membersAfter: [{ memberId: 'm-1', clientId: 'orders-svc', clientHost: '/10.0.0.7', assignment: { in: [0] } }],
      partitionsMoved: 1,
      trigger: 'unknown',
      reportedBy: 'orders-svc@pod-1/7',
    });
  });

  it('records a first join as a join with no members before, and never a negative duration', () => {
    const row = measuredRebalanceRow(
      rebalanceStopOf({
        cause: 'join',
        startedAtMs: 2_000,
        endedAtMs: 1_900,
        assignmentAfter: [{ topic: 'in', partition: 0 }],
      }),
      reporter,
      { clientId: 'c', clientHost: 'h' },
    );
    expect(row).toMatchObject({
      trigger: 'join',
      membersBefore: [],
      durationMs: 0,
      partitionsMoved: 1,
      startedAt: new Date(1_900),
    });
  });
});

describe('storageProblem', () => {
  it('accepts what Postgres can hold', () => {
    expect(
      storageProblem(
        instanceStateOf({
          partitions: [partitionStateOf({ watermark: '9223372036854775807' })],
          outcomes: [outcomeOf({ commandId: 'c' })],
        }),
      ),
    ).toBeNull();
  });

  it('names an offset past int64 and a time past the year 9999', () => {
    expect(
      storageProblem(instanceStateOf({ partitions: [partitionStateOf({ watermark: '9223372036854775808' })] })),
    ).toBe('partitions orders-0 watermark: 9223372036854775808 is past the largest int64 offset');
    expect(storageProblem(instanceStateOf({ holds: [holdOf({ offset: '9999999999999999999' })] }))).toMatch(
      /^holds orders-0 offset: /,
    );
    expect(
      storageProblem(instanceStateOf({ outcomes: [outcomeOf({ commandId: 'c', seekOffset: '9'.repeat(19) })] })),
    ).toMatch(/^outcomes c seekOffset/);
    expect(storageProblem(instanceStateOf({ publishedAtMs: 9e15 }))).toBe(
      'publishedAtMs: 9000000000000000 is past the year 9999',
    );
  });
});

describe('withoutNul', () => {
  it('escapes NUL characters in every string, keys too, and keeps everything else', () => {
    const state = instanceStateOf({
      readinessDetail: 'a\u0000b',
      holds: [holdOf({ reason: '\u0000', headers: { 'k\u0000': 'v\u0000' } })],
    });
    const clean = withoutNul(state);
    expect(clean.readinessDetail).toBe('a\\u0000b');
    expect(clean.holds[0]).toMatchObject({ reason: '\\u0000', headers: { 'k\\u0000': 'v\\u0000' }, attempts: 0 });
    expect(clean.ready).toBe(true);
    expect(withoutNul(instanceStateOf())).toEqual(instanceStateOf());
  });
});
