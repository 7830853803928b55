import { describe, expect, it } from 'vitest';
import { countOrderViolations, judge, passes, type Observation, type ProducedRecord } from './verdict';

const rec = (
  id: string,
  partition: number,
  offset: number,
  kind: ProducedRecord['kind'] = 'valid',
  key = 'k',
  sequence = offset,
): ProducedRecord => ({
  id,
  key,
  sequence,
  kind,
  partition,
  offset: BigInt(offset),
});

const stored = (entries: Array<[string, number, number?]>) =>
  new Map(entries.map(([id, seq, writes]) => [id, { id, firstStoreSeq: BigInt(seq), writeCount: writes ?? 1 }]));

function observation(overrides: Partial<Observation>): Observation {
  return {
    stored: new Map(),
    deadLettered: new Set(),
    quarantined: new Map(),
    committed: new Map(),
    storedResults: null,
    ...overrides,
  };
}

describe('judge', () => {
  const produced = [
    rec('a', 0, 0),
    rec('b', 0, 1),
    rec('p', 0, 2, 'poison'),
    rec('c', 0, 3),
    rec('i', 1, 0, 'ignored', 'm'),
    rec('d', 1, 1, 'valid', 'm'),
  ];

  it('passes a complete run with the poison dead-lettered', () => {
    const verdict = judge(
      produced,
      observation({
        stored: stored([
          ['a', 1],
          ['b', 2],
          ['c', 3],
          ['d', 4, 2],
        ]),
        deadLettered: new Set(['0/2']),
        committed: new Map([
          [0, 4n],
          [1, 2n],
        ]),
      }),
      true,
    );
    expect(verdict).toMatchObject({
      lost: [],
      silentlyDropped: [],
      commitViolations: [],
      duplicates: 1,
      deadLettered: 1,
      stored: 4,
    });
    expect(passes(verdict, { ordered: true })).toBe(true);
  });

  it('reports a commit past an unprocessed record, even mid-run', () => {
    const verdict = judge(produced, observation({ stored: stored([['a', 1]]), committed: new Map([[0, 2n]]) }), false);
    expect(verdict.commitViolations).toEqual(['b at 0/1 (committed 2)']);
    expect(verdict.lost).toEqual([]);
    expect(passes(verdict, { ordered: true })).toBe(false);
  });

  it('counts lost records and silently dropped poison only when finished, not those behind a quarantine', () => {
    const quarantinedRun = judge(
      produced,
      observation({
        stored: stored([
          ['a', 1],
          ['b', 2],
          ['d', 3],
        ]),
        quarantined: new Map([[0, 2n]]),
        committed: new Map([[0, 2n]]),
      }),
      true,
    );
    expect(quarantinedRun.lost).toEqual([]);
    expect(quarantinedRun.silentlyDropped).toEqual([]);
    expect(passes(quarantinedRun, { ordered: true })).toBe(true);

    const droppedRun = judge(
      produced,
      observation({
        stored: stored([
          ['a', 1],
          ['b', 2],
          ['c', 3],
        ]),
        committed: new Map([[0, 4n]]),
      }),
      true,
    );
    expect(droppedRun.silentlyDropped).toEqual(['p at 0/2']);
    expect(droppedRun.lost).toEqual(['d']);
    expect(droppedRun.commitViolations).toEqual(['p at 0/2 (committed 4)']);
  });
});

describe('results check', () => {
  it('reports stored records whose stored result never reached the results topic', () => {
    const produced = [rec('a', 0, 0), rec('b', 0, 1)];
    const seen = observation({
      stored: stored([
        ['a', 1],
        ['b', 2],
      ]),
      committed: new Map([[0, 2n]]),
      storedResults: new Set(['a']),
    });
    const verdict = judge(produced, seen, true);
    expect(verdict.missingResults).toEqual(['b']);
    expect(passes(verdict, { ordered: true })).toBe(false);
    expect(judge(produced, { ...seen, storedResults: new Set(['a', 'b']) }, true).missingResults).toEqual([]);
  });

  it('counts a stored record committed without its result as a commit past unfinished work, not one above the commit', () => {
    // A record completes only once its result is acknowledged: 'b' (below the commit at 2) was committed
    // without it, 'c' (at the commit) is unfinished and a redelivery would publish it.
    const produced = [rec('a', 0, 0), rec('b', 0, 1), rec('c', 0, 2)];
    const seen = observation({
      stored: stored([
        ['a', 1],
        ['b', 2],
        ['c', 3],
      ]),
      committed: new Map([[0, 2n]]),
      storedResults: new Set(['a']),
    });
    const verdict = judge(produced, seen, true);
    expect(verdict.missingResults).toEqual(['b', 'c']);
    expect(verdict.commitViolations).toEqual(['b at 0/1 (committed 2)']);
    // Mid-run checks do not read the results topic: the stored row alone counts as handled there.
    expect(judge(produced, { ...seen, storedResults: null }, false).commitViolations).toEqual([]);
  });

  it('fails a run that dead-lettered a valid record, without calling its commit a violation', () => {
    // The nemesis's lost producer state: the result could not be published, the record was dead-lettered.
    const produced = [rec('a', 0, 0), rec('b', 0, 1)];
    const seen = observation({
      stored: stored([
        ['a', 1],
        ['b', 2],
      ]),
      deadLettered: new Set(['0/1']),
      committed: new Map([[0, 2n]]),
      storedResults: new Set(['a']),
    });
    const verdict = judge(produced, seen, true);
    expect(verdict.deadLetteredValid).toEqual(['b at 0/1']);
    expect(verdict.commitViolations).toEqual([]);
    expect(passes(verdict, { ordered: true })).toBe(false);
    expect(
      passes(judge(produced, { ...seen, deadLettered: new Set(), storedResults: new Set(['a', 'b']) }, true), {
        ordered: true,
      }),
    ).toBe(true);
  });
});

describe('countOrderViolations', () => {
  it('counts records first processed before a lower sequence of the same key', () => {
    const records = [
      rec('a0', 0, 0, 'valid', 'a', 0),
      rec('a1', 0, 1, 'valid', 'a', 1),
      rec('a2', 0, 2, 'valid', 'a', 2),
      rec('b0', 0, 3, 'valid', 'b', 0),
    ];
    expect(
      countOrderViolations(
        records,
        stored([
          ['a0', 1],
          ['a1', 3],
          ['a2', 2],
          ['b0', 0],
        ]),
      ),
    ).toBe(1);
    expect(
      countOrderViolations(
        records,
        stored([
          ['a0', 1],
          ['a1', 2],
          ['a2', 3],
          ['b0', 0],
        ]),
      ),
    ).toBe(0);
  });
});
