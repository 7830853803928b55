import { describe, expect, it } from 'vitest';
import { ManualClock } from '../core/testing/fake-clock.js';
import type { RebalanceTiming } from './consumer-types.js';
import { RebalanceTimer, type GroupJoinPayload } from './rebalance-timing.js';

const payload = (duration: number): GroupJoinPayload => ({
  duration,
  groupId: 'g',
  isLeader: true,
  leaderId: 'm1',
  groupProtocol: 'RoundRobinAssigner',
  memberId: 'm1',
});
const p0 = [{ topic: 't', partition: 0 }];
const p01 = [...p0, { topic: 't', partition: 1 }];

function recordingTimer(clock: ManualClock) {
  const timings: RebalanceTiming[] = [];
  const warnings: string[] = [];
  const logger = {
    info: () => undefined,
    error: () => undefined,
    warn: (_: object, msg?: string) => warnings.push(msg ?? ''),
  };
  return { timer: new RebalanceTimer(clock, (t) => timings.push(t), logger), timings, warnings };
}

describe('RebalanceTimer', () => {
  it('dates a first join back by the duration kafkajs reports, as a join', () => {
    const clock = new ManualClock(10_000);
    const { timer, timings } = recordingTimer(clock);
    timer.joined(payload(350), [], p01);
    expect(timings).toEqual([
      {
        groupId: 'g',
        memberId: 'm1',
        leaderId: 'm1',
        isLeader: true,
        groupProtocol: 'RoundRobinAssigner',
        cause: 'join',
        startedAtMs: 9_650,
        endedAtMs: 10_000,
        assignmentBefore: [],
        assignmentAfter: p01,
      },
    ]);
  });

  it('measures a rebalance from REBALANCING to the join on the clock, ignoring the reported duration', () => {
    const clock = new ManualClock(1_000);
    const { timer, timings } = recordingTimer(clock);
    timer.stopped('rebalance');
    clock.advance(2_276);
    timer.joined(payload(5), p01, p0);
    expect(timings[0]).toMatchObject({ cause: 'rebalance', startedAtMs: 1_000, endedAtMs: 3_276 });
    expect(timings[0]?.assignmentBefore).toEqual(p01);
    expect(timings[0]?.assignmentAfter).toEqual(p0);
  });

  it('keeps the first stop of a sequence (a crash during a rebalance stays a rebalance from its start)', () => {
    const clock = new ManualClock(0);
    const { timer, timings } = recordingTimer(clock);
    timer.stopped('rebalance');
    clock.advance(500);
    timer.stopped('join');
    clock.advance(500);
    timer.joined(payload(0), p0, p0);
    // The next stop starts afresh.
    clock.advance(4_000);
    timer.stopped('join');
    clock.advance(250);
    timer.joined(payload(0), p0, p0);
    expect(timings.map(({ cause, startedAtMs, endedAtMs }) => ({ cause, startedAtMs, endedAtMs }))).toEqual([
      { cause: 'rebalance', startedAtMs: 0, endedAtMs: 1_000 },
      { cause: 'join', startedAtMs: 5_000, endedAtMs: 5_250 },
    ]);
  });

  it('swallows and logs a throwing callback, and still returns the timing', () => {
    const clock = new ManualClock(100);
    const logs: string[] = [];
    const logger = {
      info: () => undefined,
      error: () => undefined,
      warn: (_: object, msg?: string) => logs.push(msg ?? ''),
    };
    const timer = new RebalanceTimer(
      clock,
      () => {
        throw new Error('recorder down');
      },
      logger,
    );
    expect(timer.joined(payload(0), [], p0)).toMatchObject({ endedAtMs: 100 });
    expect(logs).toEqual(['onRebalance callback failed']);
  });
});
