import { describe, expect, it } from 'vitest';
import { ManualClock } from '@warden/consumer/testing';
import { retentionRisk } from '../../lib/lag/retention-risk';
import { planLossChanges, type LossIncrement, type LossPosition, type OpenLoss } from './record-loss';

// The episodes of record_loss across rounds, with an in-memory table standing in for Postgres: what one
// round's plan writes is what the next round reads, as the store does.

interface Episode extends OpenLoss {
  count: bigint;
  basis: string;
  detectedAt: Date;
  updatedAt: Date;
  endedAt: Date | null;
}

class LossTable {
  readonly episodes: Episode[] = [];
  readonly counted: LossIncrement[] = [];
  private nextId = 1n;

  constructor(private readonly clock: ManualClock) {}

  round(positions: LossPosition[]): void {
    const open = this.episodes.filter((e) => e.endedAt === null);
    const changes = planLossChanges(open, positions, this.clock.now());
    for (const o of changes.opened) this.episodes.push({ id: this.nextId++, ...o, endedAt: null });
    for (const x of changes.extended)
      Object.assign(
        this.episodes.find((e) => e.id === x.id)!,
        x,
      );
    for (const end of changes.ended) this.episodes.find((e) => e.id === end.id)!.endedAt = end.endedAt;
    this.counted.push(...changes.increments);
  }

  get total(): bigint {
    return this.counted.reduce((sum, i) => sum + i.records, 0n);
  }
}

const at = (committedOffset: bigint | null, logStartOffset: bigint, partition = 0): LossPosition => ({
  groupId: 'billing',
  topic: 'orders-4',
  partition,
  committedOffset,
  logStartOffset,
});

describe('planLossChanges', () => {
  it('opens an episode when the committed offset is below the log start, with the range retention-risk names', () => {
    const clock = new ManualClock(Date.UTC(2026, 11, 7, 14, 2));
    const table = new LossTable(clock);
    table.round([at(88_100n, 80_000n)]);
    expect(table.episodes).toEqual([]);
    clock.advance(10_000);
    table.round([at(88_100n, 89_304n)]);
    expect(table.episodes).toEqual([
      {
        id: 1n,
        groupId: 'billing',
        topic: 'orders-4',
        partition: 0,
        fromOffset: 88_100n,
        toOffset: 89_303n,
        count: 1_204n,
        basis: 'below-log-start',
        detectedAt: new Date(clock.now()),
        updatedAt: new Date(clock.now()),
        endedAt: null,
      },
    ]);
    const risk = retentionRisk(
      {
        cleanupPolicy: 'delete',
        retentionMs: 1,
        retentionBytes: -1,
        segmentMs: 1,
        segmentBytes: 1,
        checkIntervalMs: 1,
        recordBytes: null,
        readError: null,
      },
      {
        committedOffset: 88_100n,
        logStartOffset: 89_304n,
        logEndOffset: 90_000n,
        timeLagMs: null,
        timeLagKind: 'unknown',
        arrivalRatePerSec: null,
        consumptionRatePerSec: null,
      },
    );
    expect(risk).toEqual({ kind: 'lost', fromOffset: 88_100n, toOffset: 89_303n, count: 1_204n });
    expect(table.counted).toEqual([{ groupId: 'billing', topic: 'orders-4', partition: 0, records: 1_204n }]);
  });

  it('extends the open episode while the log start passes more unread records, and counts only the growth', () => {
    const clock = new ManualClock(0);
    const table = new LossTable(clock);
    table.round([at(100n, 150n)]);
    const detectedAt = new Date(clock.now());
    clock.advance(5_000);
    table.round([at(100n, 150n)]); // nothing more passed: nothing written
    expect(table.episodes[0]).toMatchObject({ toOffset: 149n, count: 50n, updatedAt: detectedAt });
    clock.advance(5_000);
    table.round([at(100n, 230n)]);
    expect(table.episodes).toHaveLength(1);
    expect(table.episodes[0]).toMatchObject({
      fromOffset: 100n,
      toOffset: 229n,
      count: 130n,
      detectedAt,
      updatedAt: new Date(clock.now()),
      endedAt: null,
    });
    expect(table.total).toBe(130n);
  });

  it('ends the episode the first round the group is at or past the log start again (it reset)', () => {
    const clock = new ManualClock(0);
    const table = new LossTable(clock);
    table.round([at(100n, 150n)]);
    clock.advance(5_000);
    table.round([at(150n, 150n)]);
    expect(table.episodes[0]).toMatchObject({ toOffset: 149n, endedAt: new Date(5_000) });
    clock.advance(5_000);
    table.round([at(170n, 160n)]); // reading on: nothing lost, nothing opened
    expect(table.episodes).toHaveLength(1);
    expect(table.total).toBe(50n);
  });

  it('ends the episode when the group no longer has a committed offset (offsets deleted or expired)', () => {
    const clock = new ManualClock(0);
    const table = new LossTable(clock);
    table.round([at(100n, 150n)]);
    clock.advance(1_000);
    table.round([at(null, 200n)]);
    expect(table.episodes[0]!.endedAt).toEqual(new Date(1_000));
  });

  it('leaves an episode alone in a round that does not show its partition', () => {
    const clock = new ManualClock(0);
    const table = new LossTable(clock);
    table.round([at(100n, 150n, 0)]);
    clock.advance(1_000);
    table.round([at(500n, 400n, 1)]);
    expect(table.episodes).toHaveLength(1);
    expect(table.episodes[0]).toMatchObject({ partition: 0, endedAt: null, toOffset: 149n });
  });

  it('is idempotent across a leader change: a new leader reading the open episode extends it, never opens another', () => {
    const clock = new ManualClock(0);
    const table = new LossTable(clock);
    table.round([at(100n, 150n)]); // the old leader
    clock.advance(5_000);
    table.round([at(100n, 150n)]); // the new leader's first round, the same observation
    table.round([at(100n, 150n)]); // and a round of the old one finishing late
    expect(table.episodes).toHaveLength(1);
    expect(table.total).toBe(50n);
  });

  it('opens a new episode when the group moved past the old one and fell below the log start again', () => {
    const clock = new ManualClock(0);
    const table = new LossTable(clock);
    table.round([at(100n, 150n)]);
    clock.advance(60_000);
    // Between two rounds the group reset to 150, read to 180, stopped, and the log start passed 230.
    table.round([at(180n, 230n)]);
    expect(table.episodes.map((e) => [e.fromOffset, e.toOffset, e.count, e.endedAt?.getTime() ?? null])).toEqual([
      [100n, 149n, 50n, 60_000],
      [180n, 229n, 50n, null],
    ]);
    expect(table.total).toBe(100n);
  });

  it('keeps the episode when an operator moves the committed offset back below it, without counting again', () => {
    const clock = new ManualClock(0);
    const table = new LossTable(clock);
    table.round([at(100n, 150n)]);
    clock.advance(1_000);
    table.round([at(20n, 160n)]);
    expect(table.episodes).toHaveLength(1);
    expect(table.episodes[0]).toMatchObject({ fromOffset: 100n, toOffset: 159n, count: 60n });
    expect(table.total).toBe(60n);
  });

  it('ends all but the newest when two episodes of one partition are open', () => {
    const open: OpenLoss[] = [
      { id: 7n, groupId: 'billing', topic: 'orders-4', partition: 0, fromOffset: 100n, toOffset: 149n },
      { id: 9n, groupId: 'billing', topic: 'orders-4', partition: 0, fromOffset: 100n, toOffset: 149n },
    ];
    const changes = planLossChanges(open, [at(100n, 160n)], 1_000);
    expect(changes.ended).toEqual([{ id: 7n, endedAt: new Date(1_000) }]);
    expect(changes.extended).toEqual([{ id: 9n, toOffset: 159n, count: 60n, updatedAt: new Date(1_000) }]);
    expect(changes.opened).toEqual([]);
  });

  it('never reports a loss for a healthy group racing the retention frontier', () => {
    // The group reads just ahead of the log start: every round its committed offset is at or past it, even
    // though the log start passed offsets the group had been at in earlier rounds.
    const clock = new ManualClock(0);
    const table = new LossTable(clock);
    for (let round = 0; round < 50; round++) {
      const logStart = BigInt(round * 100);
      table.round([at(logStart + BigInt(round % 3), logStart)]);
      clock.advance(5_000);
    }
    expect(table.episodes).toEqual([]);
    expect(table.total).toBe(0n);
  });
});
