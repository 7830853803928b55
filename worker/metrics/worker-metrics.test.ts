import { describe, expect, it } from 'vitest';
import { coreSnapshotOf, partitionSnapshotOf } from '@warden/consumer/testing';
import type { CoreSnapshot, PartitionSnapshot } from '@warden/consumer';
import type { RoundResult } from '../sampler/lag-sampler';
import type { LagSampleRow } from '../sampler/sampler-state';
import { parsePrometheusText } from '../../test-support/prometheus-text';
import { BoundedLabel, BoundedSeries, errorLabel } from './bounded-label';
import { WorkerMetrics } from './worker-metrics';

const partition = (overrides: Partial<PartitionSnapshot> & Pick<PartitionSnapshot, 'topic' | 'partition'>) =>
  partitionSnapshotOf(overrides);
const snapshotOf = (partitions: PartitionSnapshot[]) => coreSnapshotOf(partitions);

function lagRow(
  groupId: string,
  partitionIndex: number,
  lag: bigint | null,
  timeLagMs: bigint | null,
  exactTimeLagMs: bigint | null = null,
): LagSampleRow {
  return {
    sampledAt: new Date(0),
    groupId,
    topic: 'orders',
    partition: partitionIndex,
    committedOffset: 0n,
    logStartOffset: 0n,
    logEndOffset: lag ?? 0n,
    lag,
    groupState: 'Stable',
    memberId: null,
    memberClientId: null,
    memberHost: null,
    groupProtocol: null,
    timeLagMs,
    timeLagKind: 'interpolated',
    exactTimeLagMs,
    arrivalRatePerSec: null,
    consumptionRatePerSec: null,
  };
}

function round(rows: LagSampleRow[], written = true): RoundResult {
  return {
    rows,
    storedRows: written ? rows.length : 0,
    rebalances: [],
    written,
    clusterReadMs: 1,
    exactReadMs: 0,
    computeMs: 1,
    writeMs: 1,
    durationMs: 120,
    retentionRisks: [],
    losses: [],
  };
}

function setup() {
  let snapshot: CoreSnapshot | null = null;
  const leaders = new Map([
    ['default', true],
    ['eu', false],
  ]);
  const metrics = new WorkerMetrics({
    snapshot: () => snapshot,
    samplerLeaders: () => [...leaders].map(([cluster, leader]) => ({ cluster, leader })),
    defaultMetrics: false,
  });
  return {
    metrics,
    setSnapshot: (s: CoreSnapshot | null) => (snapshot = s),
    setLeader: (l: boolean, cluster = 'default') => leaders.set(cluster, l),
    scrape: async () => parsePrometheusText(await metrics.render()),
  };
}

describe('WorkerMetrics', () => {
  it('exports per-partition core state at scrape time and forgets partitions that are gone', async () => {
    const { setSnapshot, scrape } = setup();
    setSnapshot(
      snapshotOf([
        partition({
          topic: 'orders',
          partition: 0,
          inFlight: 3,
          completedUncommitted: 7,
          buffered: 2,
          oldestUnfinishedAgeMs: 1_500,
          paused: true,
        }),
        partition({
          topic: 'orders',
          partition: 1,
          quarantine: { topic: 'orders', partition: 1, offset: '42' } as PartitionSnapshot['quarantine'],
        }),
      ]),
    );
    let m = await scrape();
    expect(m.sum('warden_partition_in_flight_records', { topic: 'orders', partition: '0' })).toBe(3);
    expect(m.sum('warden_partition_completed_uncommitted_records', { partition: '0' })).toBe(7);
    expect(m.sum('warden_partition_buffered_records', { partition: '0' })).toBe(2);
    expect(m.sum('warden_partition_oldest_unfinished_age_seconds', { partition: '0' })).toBe(1.5);
    expect(m.find('warden_partition_oldest_unfinished_age_seconds', { partition: '1' })).toHaveLength(0);
    expect(m.sum('warden_partition_paused', { partition: '0' })).toBe(1);
    expect(m.sum('warden_partition_quarantined', { partition: '1' })).toBe(1);
    expect(m.sum('warden_partition_quarantined', { partition: '0' })).toBe(0);
    expect(m.sum('warden_in_flight_records')).toBe(3);
    expect(m.sum('warden_consumer_state', { state: 'running' })).toBe(1);
    expect(m.sum('warden_consumer_state')).toBe(1);

    setSnapshot(snapshotOf([partition({ topic: 'orders', partition: 1 })]));
    m = await scrape();
    expect(m.find('warden_partition_in_flight_records', { partition: '0' })).toHaveLength(0);
    expect(m.find('warden_partition_in_flight_records', { partition: '1' })).toHaveLength(1);
  });

  it('counts core events by bounded labels and times commits', async () => {
    const { metrics, scrape } = setup();
    const ref = { topic: 'orders', partition: 0, offset: '5' };
    metrics.onCoreEvent({ type: 'completed', ...ref, outcome: 'handled', attempts: 1 });
    metrics.onCoreEvent({ type: 'completed', ...ref, outcome: 'handled', attempts: 2 });
    metrics.onCoreEvent({ type: 'completed', ...ref, outcome: 'dead-lettered', attempts: 1 });
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    metrics.onCoreEvent({ type: 'retry-scheduled', ...ref, phase: 'handle', attempt: 1, delayMs: 100, error: refused });
    metrics.onCoreEvent({ type: 'admission-failed', ...ref, reason: 'not JSON', errorClass: 'poison-json' });
    metrics.onCoreEvent({ type: 'committed', requests: [], durationMs: 30 });
    metrics.onCoreEvent({
      type: 'commit-failed',
      requests: [],
      error: new Error('x'),
      errorClass: 'transient',
      durationMs: 3_000,
    });
    metrics.onCoreEvent({ type: 'redelivered', topic: 'orders', partition: 0, count: 12, reason: 'rebalance' });
    const m = await scrape();
    expect(m.sum('warden_records_completed_total', { outcome: 'handled' })).toBe(2);
    expect(m.sum('warden_records_completed_total', { outcome: 'dead-lettered' })).toBe(1);
    expect(m.sum('warden_retries_total', { phase: 'handle', error: 'ECONNREFUSED' })).toBe(1);
    expect(m.sum('warden_admission_failures_total', { error_class: 'poison-json' })).toBe(1);
    expect(m.sum('warden_commits_total')).toBe(1);
    expect(m.sum('warden_commit_failures_total', { error_class: 'transient' })).toBe(1);
    expect(m.sum('warden_commit_duration_seconds_count')).toBe(2);
    expect(m.sum('warden_commit_duration_seconds_sum')).toBeCloseTo(3.03);
    expect(m.sum('warden_commit_duration_seconds_bucket', { le: '0.05' })).toBe(1);
    expect(m.sum('warden_redelivered_records_total', { reason: 'rebalance' })).toBe(12);
    expect(m.types.get('warden_commit_duration_seconds')).toBe('histogram');
    // No offset, key or message ever becomes a label value.
    for (const sample of m.samples) expect(Object.keys(sample.labels)).not.toContain('offset');
  });

  it('exports the sampled lag of every group only while leading, from the last round only', async () => {
    const { metrics, setLeader, scrape } = setup();
    metrics.onSamplerRound('default', {
      result: round([
        lagRow('billing', 0, 120n, 4_000n),
        lagRow('billing', 1, 0n, 0n, 250n),
        lagRow('audit', 0, null, null),
      ]),
      durationMs: 120,
    });
    let m = await scrape();
    expect(m.sum('warden_group_lag_records', { group: 'billing', partition: '0' })).toBe(120);
    expect(m.sum('warden_group_time_lag_seconds', { group: 'billing', partition: '0' })).toBe(4);
    // The exact age wins over the interpolated estimate where it was measured.
    expect(m.sum('warden_group_time_lag_seconds', { group: 'billing', partition: '1' })).toBe(0.25);
    expect(m.find('warden_group_lag_records', { group: 'audit' })).toHaveLength(0);
    expect(m.sum('warden_sampler_rounds_total', { cluster: 'default', outcome: 'ok' })).toBe(1);
    expect(m.sum('warden_sampler_round_duration_seconds_count', { cluster: 'default' })).toBe(1);
    expect(m.sum('warden_sampler_leader', { cluster: 'default' })).toBe(1);
    expect(m.sum('warden_sampler_leader', { cluster: 'eu' })).toBe(0);

    metrics.onSamplerRound('default', { result: round([lagRow('billing', 0, 3n, 10n)], false), durationMs: 80 });
    metrics.onSamplerRound('default', { result: null, durationMs: 3_000 });
    m = await scrape();
    expect(m.find('warden_group_lag_records', { group: 'billing', partition: '1' })).toHaveLength(0);
    expect(m.sum('warden_sampler_rounds_total', { outcome: 'unwritten' })).toBe(1);
    expect(m.sum('warden_sampler_rounds_total', { outcome: 'failed' })).toBe(1);

    setLeader(false);
    m = await scrape();
    expect(m.find('warden_group_lag_records')).toHaveLength(0);
    expect(m.sum('warden_sampler_leader')).toBe(0);
  });

  it("labels every sampled series with its cluster, and exports a cluster's lag only while leading it", async () => {
    const { metrics, setLeader, scrape } = setup();
    metrics.onSamplerRound('default', { result: round([lagRow('orders', 0, 5n, 1_000n)]), durationMs: 100 });
    metrics.onSamplerRound('eu', { result: round([lagRow('orders', 0, 70n, 9_000n)]), durationMs: 300 });
    metrics.onSamplerRound('eu', { result: null, durationMs: 5_000 });
    let m = await scrape();
    // The same group id on two clusters is two groups: only the led cluster's series is exported.
    expect(m.find('warden_group_lag_records', { group: 'orders' })).toHaveLength(1);
    expect(m.sum('warden_group_lag_records', { cluster: 'default', group: 'orders' })).toBe(5);
    expect(m.sum('warden_sampler_rounds_total', { cluster: 'eu', outcome: 'failed' })).toBe(1);
    expect(m.sum('warden_sampler_rounds_total', { cluster: 'default', outcome: 'failed' })).toBe(0);

    setLeader(true, 'eu');
    m = await scrape();
    // An unreadable round keeps the cluster's last rows.
    expect(m.sum('warden_group_lag_records', { cluster: 'eu', group: 'orders' })).toBe(70);
    expect(m.sum('warden_group_time_lag_seconds', { cluster: 'eu', group: 'orders' })).toBe(9);
    expect(m.sum('warden_group_time_lag_seconds', { cluster: 'default', group: 'orders' })).toBe(1);
    expect(m.sum('warden_sampler_round_duration_seconds_count', { cluster: 'eu' })).toBe(2);
  });

  it('counts records lost per group partition and exports the earliest deletion of unread records', async () => {
    const { metrics, setLeader, scrape } = setup();
    const withRetention = (
      risks: RoundResult['retentionRisks'],
      losses: RoundResult['losses'],
      rows: LagSampleRow[] = [lagRow('billing', 0, 500n, 60_000n)],
    ): RoundResult => ({ ...round(rows), retentionRisks: risks, losses });
    metrics.onSamplerRound('default', {
      result: withRetention(
        [
          {
            groupId: 'billing',
            topic: 'orders',
            partition: 0,
            earliestMs: 9_600_000,
            latestMs: 11_400_000,
            rules: ['time'],
          },
          { groupId: 'billing', topic: 'orders', partition: 1, earliestMs: null, latestMs: 60_000, rules: ['time'] },
        ],
        [{ groupId: 'audit', topic: 'orders', partition: 2, records: 1_204n }],
      ),
      durationMs: 100,
    });
    let m = await scrape();
    expect(
      m.sum('warden_group_retention_deletion_earliest_seconds', {
        cluster: 'default',
        group: 'billing',
        partition: '0',
      }),
    ).toBe(9_600);
    // An unknown earliest is absent, never 0 or a guess.
    expect(m.find('warden_group_retention_deletion_earliest_seconds', { partition: '1' })).toHaveLength(0);
    expect(
      m.sum('warden_records_lost_total', { cluster: 'default', group: 'audit', topic: 'orders', partition: '2' }),
    ).toBe(1_204);
    expect(m.types.get('warden_records_lost_total')).toBe('counter');

    // The next round: the risk is gone (the group caught up), more of the same loss was found.
    metrics.onSamplerRound('default', {
      result: withRetention([], [{ groupId: 'audit', topic: 'orders', partition: 2, records: 96n }]),
      durationMs: 100,
    });
    m = await scrape();
    expect(m.find('warden_group_retention_deletion_earliest_seconds')).toHaveLength(0);
    expect(m.sum('warden_records_lost_total', { group: 'audit' })).toBe(1_300);

    metrics.onSamplerRound('default', {
      result: withRetention(
        [{ groupId: 'billing', topic: 'orders', partition: 0, earliestMs: 0, latestMs: 0, rules: ['size'] }],
        [],
      ),
      durationMs: 100,
    });
    m = await scrape();
    expect(m.sum('warden_group_retention_deletion_earliest_seconds', { group: 'billing' })).toBe(0);
    setLeader(false);
    m = await scrape();
    expect(m.find('warden_group_retention_deletion_earliest_seconds')).toHaveLength(0);
    expect(m.sum('warden_records_lost_total')).toBe(1_300); // a counter keeps what it counted
  });

  it('counts rebalances with their stop time and operator actions', async () => {
    const { metrics, scrape } = setup();
    metrics.onRebalance({
      groupId: 'g',
      memberId: 'm',
      leaderId: 'm',
      isLeader: true,
      groupProtocol: 'RoundRobinAssigner',
      cause: 'rebalance',
      startedAtMs: 1_000,
      endedAtMs: 3_500,
      assignmentBefore: [],
      assignmentAfter: [],
    });
    metrics.onOperatorAction('skip', 'done');
    metrics.onOperatorAction('seek', 'rejected');
    const m = await scrape();
    expect(m.sum('warden_rebalances_total', { cause: 'rebalance' })).toBe(1);
    expect(m.sum('warden_rebalance_stop_seconds_sum')).toBe(2.5);
    expect(m.sum('warden_operator_actions_total', { action: 'skip', status: 'done' })).toBe(1);
    expect(m.sum('warden_operator_actions_total', { action: 'seek', status: 'rejected' })).toBe(1);
  });
});

describe('BoundedLabel', () => {
  it('passes the first distinct values, then folds new ones and unsafe ones into "other"', () => {
    const label = new BoundedLabel(2);
    expect(label.of('ECONNREFUSED')).toBe('ECONNREFUSED');
    expect(label.of('P1001')).toBe('P1001');
    expect(label.of('ECONNREFUSED')).toBe('ECONNREFUSED');
    expect(label.of('ETIMEDOUT')).toBe('other');
    expect(new BoundedLabel(5).of('duplicate key value violates "x"')).toBe('other');
  });

  it('names an error by its code, else its name', () => {
    expect(errorLabel(Object.assign(new Error('x'), { code: 'P2034' }))).toBe('P2034');
    expect(errorLabel(new TypeError('x'))).toBe('TypeError');
    expect(errorLabel('boom')).toBe('string');
  });
});

describe('BoundedSeries', () => {
  it('passes the first label sets, then folds the named labels of new ones into "other"', () => {
    const series = new BoundedSeries<'cluster' | 'group'>(2, ['group']);
    expect(series.of({ cluster: 'eu', group: 'a' })).toEqual({ cluster: 'eu', group: 'a' });
    expect(series.of({ group: 'b', cluster: 'eu' })).toEqual({ cluster: 'eu', group: 'b' });
    expect(series.of({ cluster: 'eu', group: 'c' })).toEqual({ cluster: 'eu', group: 'other' });
    expect(series.of({ cluster: 'eu', group: 'a' })).toEqual({ cluster: 'eu', group: 'a' });
    expect(series.of({ cluster: 'us', group: 'b' })).toEqual({ cluster: 'us', group: 'other' });
  });
});

describe('parsePrometheusText', () => {
  it('reads samples, labels with escapes and types, and rejects malformed lines', () => {
    const m = parsePrometheusText(
      '# HELP a_total A.\n# TYPE a_total counter\na_total{x="1",y="q\\"uote"} 3\nb 2.5 1700000000\nc{le="+Inf"} +Inf\n',
    );
    expect(m.sum('a_total', { x: '1' })).toBe(3);
    expect(m.find('a_total')[0]!.labels.y).toBe('q"uote');
    expect(m.sum('b')).toBe(2.5);
    expect(m.types.get('a_total')).toBe('counter');
    expect(() => parsePrometheusText('not a sample line at all {')).toThrow(/line 1/);
    expect(() => parsePrometheusText('a{x=1} 2')).toThrow(/malformed labels/);
  });
});
