// When Kafka's retention will delete records a group has not read yet. Pure: the topic's settings, where the
// group stands in the partition and how fast both move come in; a window of time comes out.
//
// How Kafka deletes (delete policy; Kafka 4's UnifiedLog), and what follows for the oldest unread record, the
// one at the committed offset C:
// - Whole segments only. By time: a segment goes once its newest record is older than retention.ms, judged
//   at the broker's next retention check (log.retention.check.interval.ms, 5 min by default). C's segment
//   holds C, so its newest record is at least as new as C: it cannot go before C is retention.ms old (the
//   earliest bound: C is the last record of its segment). A segment is closed at the latest segment.ms after
//   its first record, so its newest record is at most segment.ms newer than C: it has gone once C is
//   retention.ms + segment.ms old, plus one check interval (the latest bound). An expired active segment is
//   rolled and deleted too, so an idle topic loses its records on time as well.
// - By size: the oldest segments go while what remains is still at least retention.bytes (per partition). C's
//   segment goes once the bytes after it reach retention.bytes: at the earliest when the unread bytes
//   (E - C records) reach retention.bytes, at the latest when they reach retention.bytes + segment.bytes.
// - The group's own movement: its oldest unread record ages one second per second while the group reads
//   nothing, and more slowly while it reads slower than records arrive: its time lag grows at 1 - c/a per
//   second (c records/s consumed, a arrived, evenly spread). A group reading at least as fast as records
//   arrive is keeping pace: its time lag does not grow, so nothing it has not read will expire unless it is
//   already that old.
// - Compacted topics delete nothing by age or size; a newer record with the same key can replace an older
//   one before the group reads it. 'compact,delete' does both.

/** A topic's settings as DescribeConfigs gave them (null: not given), or why they could not be read. */
export interface TopicRetentionSettings {
  /** 'delete', 'compact' or 'compact,delete'. */
  cleanupPolicy: string | null;
  /** -1: no time limit. */
  retentionMs: number | null;
  /** Per partition; -1: no size limit. */
  retentionBytes: number | null;
  segmentMs: number | null;
  segmentBytes: number | null;
  /** The brokers' log.retention.check.interval.ms; null: Kafka's default. */
  checkIntervalMs: number | null;
  /** Average bytes of one record (uncompressed); null: unknown, and size retention cannot be judged. */
  recordBytes: number | null;
  /** Why the settings could not be read; the other fields are then null. */
  readError: string | null;
}

/** The settings of a topic that could not be read, and why: every rule unknown, never zeros and never safe. */
export function unreadableSettings(readError: string): TopicRetentionSettings {
  return {
    cleanupPolicy: null,
    retentionMs: null,
    retentionBytes: null,
    segmentMs: null,
    segmentBytes: null,
    checkIntervalMs: null,
    recordBytes: null,
    readError,
  };
}

/** Where a group stands in one partition, and how fast things move there. */
export interface PartitionPosition {
  /** null: the group never committed (it reads from its reset policy's offset). */
  committedOffset: bigint | null;
  logStartOffset: bigint;
  logEndOffset: bigint;
  /** Age of the record at the committed offset; null when unknown. */
  timeLagMs: number | null;
  /** 'exact' and 'interpolated' are estimates of the age; 'lower-bound' means at least that old. */
  timeLagKind: 'exact' | 'interpolated' | 'lower-bound' | 'caught-up' | 'unknown';
  /** Records/s appended and committed (the sampler's smoothed rates); null: unknown. */
  arrivalRatePerSec: number | null;
  consumptionRatePerSec: number | null;
}

export type RetentionRule = 'time' | 'size';

export type RetentionRisk =
  /** Nothing unread. */
  | { kind: 'caught-up' }
  /** The group never committed here: it starts where its reset policy says, and has read nothing to lose. */
  | { kind: 'not-committed' }
  /** Delete policy without a time or size limit. */
  | { kind: 'unlimited' }
  /** Compaction only: no deletion by age or size. */
  | { kind: 'compacted' }
  /** Cannot be judged; `reason` says why, and it is never read as safe. */
  | { kind: 'unknown'; reason: string }
  /** The committed offset is below the log start: these records were deleted unread. */
  | { kind: 'lost'; fromOffset: bigint; toOffset: bigint; count: bigint }
  /** Reading at least as fast as records arrive, with its oldest unread record younger than the limit. */
  | { kind: 'keeping-pace'; oldestUnreadAgeMs: number | null; retentionMs: number | null }
  | {
      kind: 'at-risk';
      /** From now: the earliest the oldest unread record can be deleted (0: at any moment); null: unknown. */
      earliestMs: number | null;
      /** From now: by when it will have been deleted if nothing changes; null: no bound. */
      latestMs: number | null;
      /** The rules that give the window (the sooner one wins where both apply). */
      rules: RetentionRule[];
      /** How the window was obtained, in words, for the page. */
      basis: string;
      /** 'compact,delete': compaction can also replace unread records. */
      alsoCompacted: boolean;
    };

/** Kafka's default log.retention.check.interval.ms. */
export const DEFAULT_RETENTION_CHECK_INTERVAL_MS = 300_000;
/** Kafka's default segment.ms (7 days), used when a topic's settings leave it out. */
const DEFAULT_SEGMENT_MS = 604_800_000;

interface Window {
  earliestMs: number | null;
  latestMs: number | null;
  basis: string;
}

/**
 * The retention risk of the records a group has not read in one partition. Never throws: a setting that is
 * missing or not a number makes that rule unknown, not safe.
 */
export function retentionRisk(settings: TopicRetentionSettings, position: PartitionPosition): RetentionRisk {
  const { committedOffset, logStartOffset, logEndOffset } = position;
  if (committedOffset !== null && committedOffset < logStartOffset) {
    return {
      kind: 'lost',
      fromOffset: committedOffset,
      toOffset: logStartOffset - 1n,
      count: logStartOffset - committedOffset,
    };
  }
  if (committedOffset === null) return { kind: 'not-committed' };
  if (committedOffset >= logEndOffset) return { kind: 'caught-up' };
  if (settings.readError !== null) return { kind: 'unknown', reason: settings.readError };
  const policy = (settings.cleanupPolicy ?? '').split(',').map((p) => p.trim());
  const deletes = policy.includes('delete');
  const compacts = policy.includes('compact');
  if (!deletes && !compacts)
    return {
      kind: 'unknown',
      reason: `cleanup.policy ${JSON.stringify(settings.cleanupPolicy)} is not one Warden knows`,
    };
  if (!deletes) return { kind: 'compacted' };

  const timeLimited = isLimit(settings.retentionMs);
  const sizeLimited = isLimit(settings.retentionBytes);
  if (settings.retentionMs === null && settings.retentionBytes === null)
    return { kind: 'unknown', reason: 'the topic reported neither retention.ms nor retention.bytes' };
  if (!timeLimited && !sizeLimited && isKnown(settings.retentionMs) && isKnown(settings.retentionBytes))
    return { kind: 'unlimited' };

  const arrival = position.arrivalRatePerSec;
  const consumption = position.consumptionRatePerSec;
  const windows: Array<{ rule: RetentionRule; window: Window | 'keeping-pace' | { unknown: string } }> = [];
  if (timeLimited) windows.push({ rule: 'time', window: timeWindow(settings, position, arrival, consumption) });
  if (sizeLimited) windows.push({ rule: 'size', window: sizeWindow(settings, position, arrival, consumption) });
  const unknownRules = windows.flatMap((w) =>
    typeof w.window === 'object' && 'unknown' in w.window ? [w.window.unknown] : [],
  );
  const known = windows.flatMap((w) =>
    typeof w.window === 'object' && !('unknown' in w.window) ? [{ rule: w.rule, window: w.window }] : [],
  );
  if (known.length === 0) {
    if (unknownRules.length > 0) return { kind: 'unknown', reason: unknownRules.join('; ') };
    return {
      kind: 'keeping-pace',
      oldestUnreadAgeMs: position.timeLagKind === 'unknown' ? null : position.timeLagMs,
      retentionMs: timeLimited ? settings.retentionMs : null,
    };
  }
  // Both rules delete independently: the record goes at whichever comes first. So the earliest is the smaller
  // lower bound (unknown when either is), and any rule's latest bounds it from above.
  const earliest = known.map((k) => k.window.earliestMs);
  const latest = known.flatMap((k) => (k.window.latestMs === null ? [] : [k.window.latestMs]));
  return {
    kind: 'at-risk',
    earliestMs: earliest.some((e) => e === null) ? null : Math.min(...(earliest as number[])),
    latestMs: latest.length === 0 ? null : Math.min(...latest),
    rules: known.map((k) => k.rule),
    basis: [...known.map((k) => k.window.basis), ...unknownRules.map((u) => `the other rule is unknown: ${u}`)].join(
      '; ',
    ),
    alsoCompacted: compacts,
  };
}

/** How fast the oldest unread record ages: seconds of time lag per second (1: the group reads nothing). */
function ageingRate(arrival: number | null, consumption: number | null): number | null {
  if (consumption === null) return null;
  if (consumption <= 0) return 1;
  if (arrival === null) return null;
  if (arrival <= 0) return -1;
  return Math.min(1, 1 - consumption / arrival);
}

function timeWindow(
  settings: TopicRetentionSettings,
  position: PartitionPosition,
  arrival: number | null,
  consumption: number | null,
): Window | 'keeping-pace' | { unknown: string } {
  const retentionMs = settings.retentionMs as number;
  const segmentMs = isLimit(settings.segmentMs) ? (settings.segmentMs as number) : DEFAULT_SEGMENT_MS;
  const checkMs = settings.checkIntervalMs ?? DEFAULT_RETENTION_CHECK_INTERVAL_MS;
  const { timeLagMs, timeLagKind } = position;
  if (timeLagMs === null || timeLagKind === 'unknown' || timeLagKind === 'caught-up')
    return { unknown: 'the age of its oldest unread record is not known yet' };
  const rate = ageingRate(arrival, consumption);
  if (rate === null) return { unknown: 'its rates are not known yet' };
  const lastMs = retentionMs + segmentMs + checkMs;
  const atLeast = timeLagKind === 'lower-bound';
  if (rate <= 0) {
    if (timeLagMs < retentionMs) return 'keeping-pace';
    // Already old enough to go: whether it does depends on its segment, and reading it wins the race.
    return {
      earliestMs: 0,
      latestMs: timeLagMs >= lastMs ? 0 : null,
      basis: timeBasis(timeLagMs, atLeast, rate, retentionMs, segmentMs, checkMs),
    };
  }
  const earliestMs = Math.max(0, (retentionMs - timeLagMs) / rate);
  const latestMs = Math.max(0, (lastMs - timeLagMs) / rate);
  return {
    // An age known only as "at least" bounds the deletion from above, not from below.
    earliestMs: atLeast ? null : earliestMs,
    latestMs,
    basis: timeBasis(timeLagMs, atLeast, rate, retentionMs, segmentMs, checkMs),
  };
}

function sizeWindow(
  settings: TopicRetentionSettings,
  position: PartitionPosition,
  arrival: number | null,
  consumption: number | null,
): Window | 'keeping-pace' | { unknown: string } {
  const retentionBytes = settings.retentionBytes as number;
  const { recordBytes } = settings;
  if (recordBytes === null || !(recordBytes > 0))
    return { unknown: 'the size of its records is not known yet (no record read)' };
  if (!isLimit(settings.segmentBytes)) return { unknown: 'the topic reported no segment.bytes' };
  const segmentBytes = settings.segmentBytes as number;
  const unreadBytes = Number(position.logEndOffset - (position.committedOffset as bigint)) * recordBytes;
  if (arrival === null || consumption === null) return { unknown: 'its rates are not known yet' };
  const growth = (arrival - consumption) * recordBytes;
  const basis =
    `size retention: ${formatBytes(unreadBytes)} unread of ${formatBytes(retentionBytes)} kept per partition ` +
    `(records of about ${Math.round(recordBytes)} B, segments of ${formatBytes(segmentBytes)}), ` +
    (growth > 0 ? `growing ${formatBytes(growth)}/s` : 'not growing');
  if (growth <= 0) {
    if (unreadBytes < retentionBytes) return 'keeping-pace';
    return { earliestMs: 0, latestMs: unreadBytes >= retentionBytes + segmentBytes ? 0 : null, basis };
  }
  const checkMs = settings.checkIntervalMs ?? DEFAULT_RETENTION_CHECK_INTERVAL_MS;
  return {
    earliestMs: Math.max(0, ((retentionBytes - unreadBytes) / growth) * 1000),
    latestMs: Math.max(0, ((retentionBytes + segmentBytes - unreadBytes) / growth) * 1000) + checkMs,
    basis,
  };
}

function timeBasis(
  ageMs: number,
  atLeast: boolean,
  rate: number,
  retentionMs: number,
  segmentMs: number,
  checkMs: number,
) {
  const pace =
    rate >= 1
      ? 'ageing 1 s per second (nothing read)'
      : rate > 0
        ? `ageing ${rate.toFixed(2)} s per second`
        : 'not ageing';
  return (
    `time retention: oldest unread record ${atLeast ? 'at least ' : ''}${formatDuration(ageMs)} old of ` +
    `${formatDuration(retentionMs)}, ${pace}; its segment closes within ${formatDuration(segmentMs)} and the ` +
    `broker checks every ${formatDuration(checkMs)}`
  );
}

function isKnown(value: number | null): value is number {
  return value !== null && Number.isFinite(value);
}

/** A limit is set: -1 (and anything negative) means none. */
function isLimit(value: number | null): boolean {
  return isKnown(value) && value >= 0;
}

/** 1 d 2 h, 3 h 10 min, 4 min 5 s, 12 s. */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (d > 0) return h > 0 ? `${d} d ${h} h` : `${d} d`;
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  if (m > 0) return sec > 0 ? `${m} min ${sec} s` : `${m} min`;
  return `${sec} s`;
}

function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}
