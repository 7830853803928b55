import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../lib/db';
import type { RebalanceTiming } from '../shared/worker-types';
import { OwnRebalanceRecorder, type OwnRebalanceRecorderOptions } from './own-rebalance-recorder';

const timing: RebalanceTiming = {
  groupId: 'g',
  memberId: 'warden-7a1f-aaaaaa',
  leaderId: 'warden-7a1f-aaaaaa',
  isLeader: true,
  groupProtocol: 'RoundRobinAssigner',
  cause: 'rebalance',
  startedAtMs: 1_000,
  endedAtMs: 1_100,
  assignmentBefore: [{ topic: 't', partition: 0 }],
  assignmentAfter: [{ topic: 't', partition: 1 }],
};

/** A database whose rebalanceEvent.createMany records what it is given, failing the first `failures` calls. */
function fakeDatabase(failures = 0) {
  const written: unknown[] = [];
  let calls = 0;
  const db = {
    rebalanceEvent: {
      createMany: vi.fn(async ({ data }: { data: unknown[] }) => {
        calls++;
        if (calls <= failures) throw new Error('connection refused');
        written.push(...data);
        return { count: data.length };
      }),
    },
  } as unknown as Database;
  return { db, written };
}

const hostsOf = (rows: unknown[]) =>
  (rows as Array<{ membersBefore: Array<{ clientHost: string }>; membersAfter: Array<{ clientHost: string }> }>).map(
    (r) => [...r.membersBefore, ...r.membersAfter].map((m) => m.clientHost),
  );

function recorder(db: Database, identify?: OwnRebalanceRecorderOptions['identify']) {
  return new OwnRebalanceRecorder({ db, clientId: 'warden', clientHost: 'pod-7', identify });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('OwnRebalanceRecorder', () => {
  it('names the member as the group does before writing its row', async () => {
    const { db, written } = fakeDatabase();
    const identify = vi.fn(async () => ({ clientId: 'warden', clientHost: '/10.0.0.7' }));
    const r = recorder(db, identify);
    r.record(timing);
    await r.flush();
    expect(identify).toHaveBeenCalledWith('g', timing.memberId);
    expect(hostsOf(written)).toEqual([['/10.0.0.7', '/10.0.0.7']]);
    expect(r.stats).toMatchObject({ written: 1, unidentified: 0 });
  });

  it('keeps its own name when the group does not list it, cannot be asked, or does not answer in time', async () => {
    vi.useFakeTimers();
    const { db, written } = fakeDatabase();
    const answers = [
      async () => null,
      async () => {
        throw new Error('coordinator not available');
      },
      () => new Promise<null>(() => undefined), // never answers
    ];
    const r = recorder(db, () => answers.shift()!());
    for (let i = 0; i < 3; i++) r.record(timing);
    const flushed = r.flush();
    await vi.advanceTimersByTimeAsync(2_000);
    await flushed;
    expect(hostsOf(written)).toEqual([
      ['pod-7', 'pod-7'],
      ['pod-7', 'pod-7'],
      ['pod-7', 'pod-7'],
    ]);
    expect(r.stats).toMatchObject({ written: 3, unidentified: 3 });
  });

  it('asks once per row, also when its write is retried', async () => {
    const { db, written } = fakeDatabase(1);
    const identify = vi.fn(async () => ({ clientId: 'warden', clientHost: '/10.0.0.7' }));
    const r = recorder(db, identify);
    r.record(timing); // its own flush fails; the next one writes
    await r.flush();
    expect(identify).toHaveBeenCalledTimes(1);
    expect(hostsOf(written)).toEqual([['/10.0.0.7', '/10.0.0.7']]);
    expect(r.stats).toMatchObject({ written: 1, failedWrites: 1 });
  });
});
