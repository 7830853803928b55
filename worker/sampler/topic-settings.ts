// The retention settings of the topics the sampled groups read, as the leading sampler keeps them: read with
// one DescribeConfigs about once a minute (settings seldom change, and the windows they feed move in minutes),
// cached between reads, joined with the running average size of the topic's records (measured where the
// sampler reads the record at a committed offset for exact time lag), and written to topic_retention only
// when something changed. Pure and in memory: the sampler performs the reads and writes this tracker asks for;
// a new leader starts empty, reads every topic in its first round and compares with the stored rows.
//
// Rules:
// - A topic new to the tracker is read in the round it appears; every topic is read again once per interval.
// - A request that failed (the cluster could not be asked) is tried again after RETRY_AFTER_FAILURE_MS (at
//   most the interval); the settings read before stay in use meanwhile, and nothing is made up.
// - A topic the broker refused keeps its refusal as read_error, every other field null: never zeros.
// - A broker check interval that could not be read keeps the last one read (null before any).
// - A row is written when it is new, when a setting or the refusal changed (changed_at = the read), when
//   record_bytes first became known or moved by more than RECORD_BYTES_REWRITE_RATIO, and otherwise with a
//   new read at most once per READ_AT_MIN_INTERVAL_MS (read_at).

import type { PartitionPosition, TopicRetentionSettings } from '../../lib/lag/retention-risk';
import { settingsFromRow } from '../../lib/groups/load-retention';
import type { RecordRead, TopicSettingsRead } from '../../lib/kafka/cluster-reader';

/** How often every topic's settings are read again: settings seldom change, and one request covers them all. */
export const TOPIC_SETTINGS_INTERVAL_MS = 60_000;
/** After a failed request: the next try (at most the interval), so a refusing cluster is not asked every round. */
export const RETRY_AFTER_FAILURE_MS = 15_000;
/** read_at is rewritten at most this often when nothing else changed. */
export const READ_AT_MIN_INTERVAL_MS = 60_000;
/** record_bytes is written before the next read_at when it moved by more than this fraction. */
export const RECORD_BYTES_REWRITE_RATIO = 0.1;
/** The running average of record sizes weighs at most this many records, so it follows a topic that changes. */
const RECORD_SIZE_MEMORY = 1_000;
/** A stored average (read back by a new leader) counts as this many records. */
const STORED_RECORD_SIZE_WEIGHT = 100;

/** One topic_retention row. */
export interface TopicRetentionRow {
  topic: string;
  cleanupPolicy: string | null;
  retentionMs: bigint | null;
  retentionBytes: bigint | null;
  segmentMs: bigint | null;
  segmentBytes: bigint | null;
  checkIntervalMs: bigint | null;
  readError: string | null;
  recordBytes: number | null;
  readAt: Date;
  changedAt: Date;
}

/** A topic's configs as read, parsed; or its refusal. */
export interface ParsedTopicSettings {
  cleanupPolicy: string | null;
  retentionMs: bigint | null;
  retentionBytes: bigint | null;
  segmentMs: bigint | null;
  segmentBytes: bigint | null;
  readError: string | null;
}

/** What to read this round. */
export interface SettingsReadPlan {
  topics: string[];
  /** Every topic (the interval elapsed), rather than only the new ones. */
  full: boolean;
}

/** The configs DescribeConfigs gave, parsed: a value that is not an integer is null (that rule is then unknown). */
export function parseTopicConfigs(configs: Readonly<Record<string, string | null>>): ParsedTopicSettings {
  const policy = configs['cleanup.policy'];
  return {
    cleanupPolicy: policy === null || policy === undefined ? null : policy.replace(/[[\]\s]/g, ''),
    retentionMs: integer(configs['retention.ms']),
    retentionBytes: integer(configs['retention.bytes']),
    segmentMs: integer(configs['segment.ms']),
    segmentBytes: integer(configs['segment.bytes']),
    readError: null,
  };
}

function refusedSettings(readError: string): ParsedTopicSettings {
  return {
    cleanupPolicy: null,
    retentionMs: null,
    retentionBytes: null,
    segmentMs: null,
    segmentBytes: null,
    readError,
  };
}

function integer(value: string | null | undefined): bigint | null {
  if (value === null || value === undefined) return null;
  const trimmed = value.trim();
  return /^-?\d+$/.test(trimmed) ? BigInt(trimmed) : null;
}

const toNumber = (value: bigint | null): number | null => (value === null ? null : Number(value));

const TIME_LAG_KINDS = new Set(['interpolated', 'lower-bound', 'caught-up', 'unknown']);

/**
 * A lag_sample row (as the sampler makes it or Postgres stores it) as the retention rule reads it: the age of
 * the oldest unread record is the exact one where it was read, else the estimate and its kind.
 */
export function positionFromSample(row: {
  committedOffset: bigint | null;
  logStartOffset: bigint;
  logEndOffset: bigint;
  timeLagMs: bigint | null;
  timeLagKind: string | null;
  exactTimeLagMs: bigint | null;
  arrivalRatePerSec: number | null;
  consumptionRatePerSec: number | null;
}): PartitionPosition {
  const exact = row.exactTimeLagMs !== null;
  const kind = exact
    ? 'exact'
    : row.timeLagKind !== null && TIME_LAG_KINDS.has(row.timeLagKind)
      ? (row.timeLagKind as PartitionPosition['timeLagKind'])
      : 'unknown';
  return {
    committedOffset: row.committedOffset,
    logStartOffset: row.logStartOffset,
    logEndOffset: row.logEndOffset,
    timeLagMs: exact ? Number(row.exactTimeLagMs) : kind === 'unknown' ? null : toNumber(row.timeLagMs),
    timeLagKind: kind,
    arrivalRatePerSec: row.arrivalRatePerSec,
    consumptionRatePerSec: row.consumptionRatePerSec,
  };
}

export class TopicSettingsTracker {
  private readonly read = new Map<string, { settings: ParsedTopicSettings; readAtMs: number }>();
  private readonly sizes = new Map<string, { averageBytes: number; weight: number }>();
  private readonly stored = new Map<string, TopicRetentionRow>();
  private storedLoaded = false;
  private checkIntervalMs: bigint | null = null;
  private lastFullReadMs = Number.NEGATIVE_INFINITY;
  private retryAtMs = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: { intervalMs: number }) {
    if (!Number.isFinite(options.intervalMs) || options.intervalMs < 0)
      throw new RangeError(`intervalMs must be >= 0, got ${options.intervalMs}`);
  }

  /** The topics to read now (none: nothing due, or waiting after a failed request). */
  plan(topics: readonly string[], nowMs: number): SettingsReadPlan {
    if (topics.length === 0 || nowMs < this.retryAtMs) return { topics: [], full: false };
    if (nowMs - this.lastFullReadMs >= this.options.intervalMs) return { topics: [...topics], full: true };
    return { topics: topics.filter((t) => !this.read.has(t)), full: false };
  }

  /** Takes what a planned read gave. */
  accept(plan: SettingsReadPlan, result: TopicSettingsRead, nowMs: number): void {
    for (const topic of result.topics) {
      this.read.set(topic.topic, {
        settings:
          topic.error !== null
            ? refusedSettings(topic.error)
            : topic.configs === null
              ? refusedSettings(`the broker gave no configs for topic ${topic.topic}`)
              : parseTopicConfigs(topic.configs),
        readAtMs: nowMs,
      });
    }
    if (result.retentionCheckIntervalMs !== null) this.checkIntervalMs = BigInt(result.retentionCheckIntervalMs);
    if (plan.full) this.lastFullReadMs = nowMs;
    this.retryAtMs = Number.NEGATIVE_INFINITY;
  }

  /** The planned read failed as a whole: the settings read before stay; tried again after a pause. */
  failed(nowMs: number): void {
    this.retryAtMs = nowMs + Math.min(this.options.intervalMs, RETRY_AFTER_FAILURE_MS);
  }

  /** Adds the sizes of records read at committed offsets to their topics' running averages. */
  observeRecordSizes(reads: readonly RecordRead[]): void {
    for (const r of reads) {
      const sample = r.recordSize;
      if (!sample || !(sample.records > 0) || !(sample.bytes > 0) || !Number.isFinite(sample.bytes)) continue;
      const known = this.sizes.get(r.topic);
      const weight = Math.min(known?.weight ?? 0, RECORD_SIZE_MEMORY);
      const averageBytes = ((known?.averageBytes ?? 0) * weight + sample.bytes) / (weight + sample.records);
      this.sizes.set(r.topic, { averageBytes, weight: weight + sample.records });
    }
  }

  /** Forgets topics no sampled group reads any more (a topic that comes back is read again at once). */
  retainOnly(topics: readonly string[]): void {
    const live = new Set(topics);
    for (const topic of this.read.keys()) if (!live.has(topic)) this.read.delete(topic);
    for (const topic of this.sizes.keys()) if (!live.has(topic)) this.sizes.delete(topic);
  }

  /** A topic's settings for the retention rule; null before its first read. */
  settingsOf(topic: string): TopicRetentionSettings | null {
    const entry = this.read.get(topic);
    if (entry === undefined) return null;
    return settingsFromRow({
      ...entry.settings,
      checkIntervalMs: this.checkIntervalMs,
      recordBytes: this.recordBytesOf(topic),
    });
  }

  /** Whether the stored rows must be loaded (loadStored) before `changes` can tell what changed. */
  get needsStored(): boolean {
    return !this.storedLoaded;
  }

  /** The rows Postgres holds for this cluster (once per leadership); a stored record size seeds the average. */
  loadStored(rows: readonly TopicRetentionRow[]): void {
    this.stored.clear();
    for (const row of rows) {
      this.stored.set(row.topic, row);
      if (row.recordBytes !== null && row.recordBytes > 0 && !this.sizes.has(row.topic))
        this.sizes.set(row.topic, { averageBytes: row.recordBytes, weight: STORED_RECORD_SIZE_WEIGHT });
    }
    this.storedLoaded = true;
  }

  /** The rows to write now (see the rules above); hand them to confirmStored once written. */
  changes(): TopicRetentionRow[] {
    if (!this.storedLoaded) return [];
    const rows: TopicRetentionRow[] = [];
    for (const [topic, { settings, readAtMs }] of this.read) {
      const checkIntervalMs = settings.readError === null ? this.checkIntervalMs : null;
      const recordBytes = settings.readError === null ? this.recordBytesOf(topic) : null;
      const before = this.stored.get(topic);
      const readAt = new Date(readAtMs);
      const row = { topic, ...settings, checkIntervalMs, recordBytes };
      if (before === undefined || settingsDiffer(before, row)) {
        rows.push({ ...row, readAt, changedAt: readAt });
      } else if (readAtMs - before.readAt.getTime() >= READ_AT_MIN_INTERVAL_MS) {
        rows.push({ ...row, readAt, changedAt: before.changedAt });
      } else if (recordBytesMoved(before.recordBytes, recordBytes)) {
        rows.push({ ...row, readAt: before.readAt, changedAt: before.changedAt });
      }
    }
    return rows;
  }

  confirmStored(rows: readonly TopicRetentionRow[]): void {
    for (const row of rows) this.stored.set(row.topic, row);
  }

  private recordBytesOf(topic: string): number | null {
    return this.sizes.get(topic)?.averageBytes ?? null;
  }
}

function settingsDiffer(
  a: Omit<TopicRetentionRow, 'readAt' | 'changedAt' | 'recordBytes'>,
  b: Omit<TopicRetentionRow, 'readAt' | 'changedAt' | 'recordBytes'>,
): boolean {
  return (
    a.cleanupPolicy !== b.cleanupPolicy ||
    a.retentionMs !== b.retentionMs ||
    a.retentionBytes !== b.retentionBytes ||
    a.segmentMs !== b.segmentMs ||
    a.segmentBytes !== b.segmentBytes ||
    a.checkIntervalMs !== b.checkIntervalMs ||
    a.readError !== b.readError
  );
}

function recordBytesMoved(stored: number | null, now: number | null): boolean {
  if (now === null) return false;
  if (stored === null || stored <= 0) return true;
  return Math.abs(now - stored) / stored > RECORD_BYTES_REWRITE_RATIO;
}
