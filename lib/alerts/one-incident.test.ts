import { describe, expect, it } from 'vitest';
import type { AlertCondition } from './alert-settings';
import { groupStatusCauses, type StatusPartition } from './one-incident';

const p = (partition: number, status: StatusPartition['status'], burrowStatus = status): StatusPartition => ({
  topic: 'orders',
  partition,
  status,
  burrowStatus: burrowStatus === 'LOST' ? 'STOP' : burrowStatus,
});
const q = (partition: number) => ({ topic: 'orders', partition });
const holding = (...conditions: AlertCondition[]) => new Set(conditions);
const summary = (result: ReturnType<typeof groupStatusCauses>) =>
  result.causes.map((c) => `${c.kind} ${c.topic ?? '*'}-${c.partition ?? '*'} ${c.explainedBy ?? 'group-status'}`);

describe('groupStatusCauses', () => {
  it('a quarantine explains its own partition, whatever Burrow says of it', () => {
    const result = groupStatusCauses({
      problems: [p(0, 'STOP')],
      quarantined: [q(0), q(3)],
      objectiveBreached: false,
      holding: holding('partition-quarantined'),
    });
    expect(summary(result)).toEqual([
      'quarantined orders-0 partition-quarantined',
      'quarantined orders-3 partition-quarantined',
    ]);
    expect(result.unexplained).toEqual([]);
  });

  it('explains nothing whose alert does not hold (disabled, or not found)', () => {
    const result = groupStatusCauses({
      problems: [p(0, 'STOP'), p(4, 'LOST')],
      quarantined: [q(0)],
      objectiveBreached: false,
      holding: holding(),
    });
    expect(summary(result)).toEqual(['quarantined orders-0 group-status', 'lost orders-4 group-status']);
    expect(result.unexplained).toHaveLength(2);
  });

  it('a LOST partition is told by records-lost; a STOP by its own worker not being ready', () => {
    const result = groupStatusCauses({
      problems: [p(4, 'LOST'), p(1, 'STOP')],
      quarantined: [],
      objectiveBreached: false,
      holding: holding('records-lost', 'worker-not-ready'),
    });
    expect(summary(result)).toEqual(['STOP orders-1 worker-not-ready', 'lost orders-4 records-lost']);
    expect(result.unexplained).toEqual([]);
  });

  it('never explains a REWIND (not even on a held partition), a STALL, a WARN or the objective', () => {
    const result = groupStatusCauses({
      problems: [p(0, 'REWIND'), p(1, 'STALL'), p(2, 'WARN'), p(3, 'STOP')],
      quarantined: [q(0)],
      objectiveBreached: true,
      holding: holding('partition-quarantined', 'records-lost'),
    });
    expect(summary(result)).toEqual([
      'quarantined orders-0 partition-quarantined',
      'REWIND orders-0 group-status',
      'STALL orders-1 group-status',
      'WARN orders-2 group-status',
      'STOP orders-3 group-status',
      'objective *-* group-status',
    ]);
    expect(result.unexplained.map((c) => c.kind)).toEqual(['REWIND', 'STALL', 'WARN', 'STOP', 'objective']);
  });
});
