import { describe, expect, it } from 'vitest';
import { buildLagRows } from './lag-rows';
import { isGroupSampled, type GroupSnapshot } from '../../lib/kafka/cluster-observation';

const at = new Date('2026-11-29T12:00:00Z');

describe('buildLagRows', () => {
  const group: GroupSnapshot = {
    groupId: 'orders',
    state: 'Stable',
    protocol: 'RoundRobinAssigner',
    members: [{ memberId: 'm-1', clientId: 'c-1', clientHost: '/10.0.0.1', assignment: { orders: [0] } }],
    committed: [
      {
        topic: 'orders',
        partitions: [
          { partition: 0, offset: '40' },
          { partition: 1, offset: '-1' },
        ],
      },
    ],
  };

  it('computes lag per partition, null when nothing is committed, and names the owner', () => {
    const rows = buildLagRows(
      group,
      [
        {
          topic: 'orders',
          partitions: [
            { partition: 1, low: '0', high: '7' },
            { partition: 0, low: '5', high: '100' },
          ],
        },
        { topic: 'unrelated', partitions: [{ partition: 0, low: '0', high: '9' }] },
      ],
      at,
    );
    expect(rows).toEqual([
      {
        sampledAt: at,
        groupId: 'orders',
        topic: 'orders',
        partition: 0,
        committedOffset: 40n,
        logStartOffset: 5n,
        logEndOffset: 100n,
        lag: 60n,
        groupState: 'Stable',
        memberId: 'm-1',
        memberClientId: 'c-1',
        memberHost: '/10.0.0.1',
        groupProtocol: 'RoundRobinAssigner',
      },
      {
        sampledAt: at,
        groupId: 'orders',
        topic: 'orders',
        partition: 1,
        committedOffset: null,
        logStartOffset: 0n,
        logEndOffset: 7n,
        lag: null,
        groupState: 'Stable',
        memberId: null,
        memberClientId: null,
        memberHost: null,
        groupProtocol: 'RoundRobinAssigner',
      },
    ]);
  });

  it('never reports negative lag when the committed offset leads a stale log end', () => {
    const rows = buildLagRows(group, [{ topic: 'orders', partitions: [{ partition: 0, low: '0', high: '30' }] }], at);
    expect(rows[0]?.lag).toBe(0n);
  });

  it('records no protocol for a group without one (no members: offsets set by an admin)', () => {
    const rows = buildLagRows(
      { ...group, state: 'Empty', protocol: '', members: [] },
      [{ topic: 'orders', partitions: [{ partition: 0, low: '0', high: '50' }] }],
      at,
    );
    expect(rows.map((r) => [r.groupProtocol, r.memberClientId, r.lag])).toEqual([[null, null, 10n]]);
  });

  it('takes a negative committed offset (a reset in progress) for nothing committed, never a position', () => {
    // kafkajs commits -2 ("earliest") when a group's offset went out of range, until it has read again.
    const resetting: GroupSnapshot = {
      ...group,
      committed: [{ topic: 'orders', partitions: [{ partition: 0, offset: '-2' }] }],
    };
    const rows = buildLagRows(
      resetting,
      [{ topic: 'orders', partitions: [{ partition: 0, low: '20', high: '50' }] }],
      at,
    );
    expect(rows.map((r) => [r.committedOffset, r.lag])).toEqual([[null, null]]);
  });

  it('keeps int64 offsets exact', () => {
    const big: GroupSnapshot = {
      ...group,
      committed: [{ topic: 'orders', partitions: [{ partition: 0, offset: '9223372036854775000' }] }],
    };
    const rows = buildLagRows(
      big,
      [{ topic: 'orders', partitions: [{ partition: 0, low: '0', high: '9223372036854775807' }] }],
      at,
    );
    expect(rows[0]?.lag).toBe(807n);
  });
});

describe('isGroupSampled', () => {
  it('applies include and exclude, but always keeps the own group', () => {
    const filter = { include: /^orders/, exclude: /-tmp$/, ownGroupId: 'warden' };
    expect(isGroupSampled('orders-eu', filter)).toBe(true);
    expect(isGroupSampled('orders-tmp', filter)).toBe(false);
    expect(isGroupSampled('billing', filter)).toBe(false);
    expect(isGroupSampled('warden', filter)).toBe(true);
  });

  it("never samples Warden's hidden helper groups", () => {
    const filter = { include: null, exclude: null, ownGroupId: 'warden', hiddenGroupIds: ['warden.offsets-reader'] };
    expect(isGroupSampled('warden.offsets-reader', filter)).toBe(false);
    expect(isGroupSampled('billing', filter)).toBe(true);
  });

  it("never samples the control plane's own groups, whatever the patterns say", () => {
    const filter = {
      include: /^warden-control/,
      exclude: null,
      ownGroupId: 'warden-pipeline',
      hiddenGroupPrefixes: ['warden-control.'],
    };
    expect(isGroupSampled('warden-control.ingest', filter)).toBe(false);
    expect(isGroupSampled('warden-control.commands.orders.6f1c', filter)).toBe(false);
    // Only the prefix with its dot: a group merely named alike is sampled.
    expect(isGroupSampled('warden-control-orders', filter)).toBe(true);
  });
});
