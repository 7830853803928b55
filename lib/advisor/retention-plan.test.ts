import { describe, expect, it } from 'vitest';
import { drainsByDeadline, planCapacity, type CapacityInput, type PartitionLoad } from './capacity';
import { planBeforeDeletion } from './retention-plan';

// Six partitions of 100 records/s, 360,000 behind each; one consumer processes 300/s; 3 run now; a change of
// the count costs a 10 s rebalance pause. With 3 consumers each drains two partitions: 720,000 / (300 - 200)
// = 7,200 s. With 5, partition 4 is alone on its consumer: (360,000 + 100 x 10) / (300 - 100) + 10 = 1,815 s.
const partitions: PartitionLoad[] = Array.from({ length: 6 }, (_, partition) => ({
  partition,
  arrivalRatePerSec: 100,
  backlog: 360_000,
}));
const group: CapacityInput = {
  partitions,
  consumers: 3,
  perConsumerRatePerSec: 300,
  targetCatchUpSec: 4 * 3600,
  rebalancePause: { sec: 10, statement: 'T counts a 10 s rebalance pause.' },
};

describe('drainsByDeadline', () => {
  it("judges each at-risk partition by its own consumer's drain, pause and its arrivals included", () => {
    const deadlines = [{ partition: 4, deadlineSec: 3_600 }];
    expect(drainsByDeadline(partitions, deadlines, 3, 300, 0)).toEqual([
      { partition: 4, catchUpSec: 7_200, inTime: false },
    ]);
    expect(drainsByDeadline(partitions, deadlines, 5, 300, 10)).toEqual([
      { partition: 4, catchUpSec: 1_815, inTime: true },
    ]);
    // A consumer that never catches up is never in time.
    expect(drainsByDeadline(partitions, deadlines, 1, 300, 10)).toEqual([
      { partition: 4, catchUpSec: null, inTime: false },
    ]);
  });
});

describe('the capacity plan against retention deadlines', () => {
  it('keeps the target count when it reads every partition at risk in time, and says so', () => {
    const plan = planCapacity({ ...group, deadlines: [{ partition: 4, deadlineSec: 3 * 3600 }] });
    expect(plan.recommendedConsumers).toBe(3);
    expect(plan.retention).toMatchObject({ state: 'in-time', consumers: 3, late: [] });
    expect(plan.summary).toContain('That reads 1 partition at risk of retention before it can delete unread records.');
  });

  it('recommends the smallest count that finishes first when the target count would read too late', () => {
    const plan = planCapacity({ ...group, deadlines: [{ partition: 4, deadlineSec: 3_600 }] });
    // 4 consumers still pair partition 4 with another (7,230 s); 5 give it a consumer of its own.
    expect(plan.retention).toMatchObject({ state: 'finish-first', consumers: 5, late: [] });
    expect(plan.recommendedConsumers).toBe(5);
    expect(plan.targetConsumers).toBe(3);
    expect(plan.catchUpSec).toBe(7_230);
    expect(plan.summary).toBe(
      'Scale consumers to 5 to read every partition at risk before retention can delete records they have not read: catch up in 2 h 1 min. ' +
        'With 3 consumers (enough for the 4 h target) some would be read too late. At the current 3 it takes 2 h. ' +
        'T counts a 10 s rebalance pause.',
    );
  });

  it('says when no count reads a partition in time: one consumer at a time cannot', () => {
    const plan = planCapacity({ ...group, deadlines: [{ partition: 4, deadlineSec: 600 }] });
    expect(plan.retention).toMatchObject({ state: 'none-can', consumers: 3, late: [4] });
    expect(plan.recommendedConsumers).toBe(3);
    expect(plan.summary).toContain(
      'No consumer count reads partition 4 before retention can delete unread records there: a partition is read by one consumer at a time.',
    );
  });

  it('prefers a count in time that also meets the target', () => {
    const input = {
      deadlines: [{ partition: 0, deadlineSec: 100 }],
      recommended: 1,
      targetCatchUpSec: 50,
      curve: [
        { consumers: 1, catchUpSec: 40 },
        { consumers: 2, catchUpSec: 90 },
        { consumers: 3, catchUpSec: 45 },
      ],
      drainsAt: (n: number) => [{ partition: 0, catchUpSec: null, inTime: n >= 2 }],
    };
    expect(planBeforeDeletion(input)).toMatchObject({ state: 'finish-first', consumers: 3 });
    expect(planBeforeDeletion({ ...input, targetCatchUpSec: 10 })).toMatchObject({ consumers: 2 });
    expect(planBeforeDeletion({ ...input, deadlines: [] })).toBeNull();
  });

  it('rejects a deadline that is negative or names a partition not planned', () => {
    expect(() => planCapacity({ ...group, deadlines: [{ partition: 4, deadlineSec: -1 }] })).toThrow(RangeError);
    expect(() => planCapacity({ ...group, deadlines: [{ partition: 9, deadlineSec: 60 }] })).toThrow(
      'a deadline names partition 9, which is not planned',
    );
  });
});
