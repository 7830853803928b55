// Pure checks of a verification run: what was produced against what the pipeline stored, what went to
// the dead-letter topic, what is quarantined and what the group committed. Unit-tested on plain data.

export type RecordKind = 'valid' | 'ignored' | 'poison' | 'malformed';

export interface ProducedRecord {
  id: string;
  key: string;
  sequence: number;
  kind: RecordKind;
  partition: number;
  offset: bigint;
}

export interface StoredRecord {
  id: string;
  /** Global order of the first write. */
  firstStoreSeq: bigint;
  writeCount: number;
}

export interface Observation {
  stored: ReadonlyMap<string, StoredRecord>;
  /** Dead-lettered records by "partition/offset" of the source. */
  deadLettered: ReadonlySet<string>;
  /** Quarantined partitions and the offset each is held at. */
  quarantined: ReadonlyMap<number, bigint>;
  /** Committed offset per partition ("next to read"); absent when never committed. */
  committed: ReadonlyMap<number, bigint>;
  /** Ids with a `stored` result event on the results topic; null when the topic was not read. */
  storedResults: ReadonlySet<string> | null;
}

export interface Verdict {
  produced: number;
  valid: number;
  stored: number;
  /** Valid records never processed. Must be 0 once the run finished. */
  lost: string[];
  /** Records processed for the first time before a lower sequence number of the same key. */
  orderViolations: number;
  /** Extra writes beyond the first: redeliveries. */
  duplicates: number;
  badRecords: number;
  deadLettered: number;
  quarantined: number;
  /** Poison or malformed records neither dead-lettered nor holding a quarantine, in a partition that moved past them. */
  silentlyDropped: string[];
  /**
   * Records below a committed offset that were not handled (a valid one: stored and, when the results
   * topic was read, its result there): a commit past unfinished work.
   */
  commitViolations: string[];
  /** Stored records whose `stored` result never reached the results topic (checked when it was read). */
  missingResults: string[];
  /** Valid records dead-lettered: completed as permanent failures, which no valid record may be here. */
  deadLetteredValid: string[];
}

const coordinate = (r: { partition: number; offset: bigint }) => `${r.partition}/${r.offset}`;

/**
 * Evaluates one observation. `finished` is false for checks taken mid-run (after a fault): then missing
 * records are not "lost" yet, but a commit past any unhandled record is already a violation.
 */
export function judge(produced: readonly ProducedRecord[], seen: Observation, finished: boolean): Verdict {
  // A valid record is handled once stored and, where the results topic was read, its result acknowledged:
  // the pipeline completes (and may commit) a record only after its result is.
  const handled = (r: ProducedRecord): boolean => {
    if (r.kind === 'valid')
      return (seen.stored.has(r.id) && (seen.storedResults?.has(r.id) ?? true)) || seen.deadLettered.has(coordinate(r));
    if (r.kind === 'ignored') return true;
    return seen.deadLettered.has(coordinate(r));
  };

  const commitViolations = produced
    .filter((r) => {
      const committed = seen.committed.get(r.partition);
      return committed !== undefined && r.offset < committed && !handled(r);
    })
    .map((r) => `${r.id} at ${coordinate(r)} (committed ${seen.committed.get(r.partition)})`);

  const valid = produced.filter((r) => r.kind === 'valid');
  const heldAt = (r: ProducedRecord) => seen.quarantined.get(r.partition);
  // A record behind a quarantine is not lost: its partition is deliberately stopped before it.
  const blocked = (r: ProducedRecord) => {
    const held = heldAt(r);
    return held !== undefined && r.offset >= held;
  };
  const lost = finished ? valid.filter((r) => !seen.stored.has(r.id) && !blocked(r)).map((r) => r.id) : [];

  const bad = produced.filter((r) => r.kind === 'poison' || r.kind === 'malformed');
  const silentlyDropped = finished
    ? bad.filter((r) => !seen.deadLettered.has(coordinate(r)) && !blocked(r)).map((r) => `${r.id} at ${coordinate(r)}`)
    : [];

  return {
    produced: produced.length,
    valid: valid.length,
    stored: valid.filter((r) => seen.stored.has(r.id)).length,
    lost,
    orderViolations: countOrderViolations(valid, seen.stored),
    duplicates: [...seen.stored.values()].reduce((sum, s) => sum + Math.max(0, s.writeCount - 1), 0),
    badRecords: bad.length,
    deadLettered: bad.filter((r) => seen.deadLettered.has(coordinate(r))).length,
    quarantined: seen.quarantined.size,
    silentlyDropped,
    commitViolations,
    missingResults:
      finished && seen.storedResults
        ? valid.filter((r) => seen.stored.has(r.id) && !seen.storedResults!.has(r.id)).map((r) => r.id)
        : [],
    deadLetteredValid: valid
      .filter((r) => seen.deadLettered.has(coordinate(r)))
      .map((r) => `${r.id} at ${coordinate(r)}`),
  };
}

/** Per key, in sequence order, each first write must come after every first write of a lower sequence. */
export function countOrderViolations(
  valid: readonly ProducedRecord[],
  stored: ReadonlyMap<string, StoredRecord>,
): number {
  const byKey = new Map<string, ProducedRecord[]>();
  for (const r of valid) byKey.set(r.key, [...(byKey.get(r.key) ?? []), r]);
  let violations = 0;
  for (const records of byKey.values()) {
    let highest = -1n;
    for (const r of [...records].sort((a, b) => a.sequence - b.sequence)) {
      const seq = stored.get(r.id)?.firstStoreSeq;
      if (seq === undefined) continue;
      if (seq < highest) violations += 1;
      else highest = seq;
    }
  }
  return violations;
}

/** Whether a verdict passes: nothing lost, no order violation, nothing dropped, no commit past unfinished work. */
export function passes(verdict: Verdict, options: { ordered: boolean }): boolean {
  return (
    verdict.lost.length === 0 &&
    verdict.silentlyDropped.length === 0 &&
    verdict.commitViolations.length === 0 &&
    verdict.missingResults.length === 0 &&
    verdict.deadLetteredValid.length === 0 &&
    (!options.ordered || verdict.orderViolations === 0)
  );
}
