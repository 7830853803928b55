// Pure: what retention means for one group's partitions, in the API's words. The rule itself is
// lib/lag/retention-risk.ts; this module feeds it a partition's analysed position (its resolved time lag and
// rates) and the topic's stored settings, and turns its answers and the sampler's record-loss episodes into the
// JSON and the sentences the pages, the alerts and the capacity card show.

import { formatDuration, formatNumber } from '../format';
import {
  retentionRisk,
  unreadableSettings,
  type PartitionPosition,
  type RetentionRisk,
  type TopicRetentionSettings,
} from '../lag/retention-risk';
import type { TRetentionRisk, TSoonestDeletion, TTimeLag } from '../schemas/groups';
import type { TRecordLoss } from '../schemas/record-losses';

/** Why a topic without a stored settings row cannot be judged: the sampler has not read its settings yet. */
export const SETTINGS_NOT_READ = 'not read yet';

/** The settings of a topic the sampler has not read: every rule unknown, never safe. */
export const UNREAD_SETTINGS: TopicRetentionSettings = unreadableSettings(SETTINGS_NOT_READ);

/** One partition's position as the analysis resolved it (lib/analysis/group-analysis.ts). */
export interface AnalysedPosition {
  committedOffset: bigint | null;
  logStartOffset: bigint;
  logEndOffset: bigint;
  timeLag: TTimeLag;
  arrivalRatePerSec: number | null;
  consumptionRatePerSec: number | null;
}

export function positionOf(p: AnalysedPosition): PartitionPosition {
  return {
    committedOffset: p.committedOffset,
    logStartOffset: p.logStartOffset,
    logEndOffset: p.logEndOffset,
    timeLagMs: p.timeLag.ms,
    timeLagKind: p.timeLag.kind,
    arrivalRatePerSec: p.arrivalRatePerSec,
    consumptionRatePerSec: p.consumptionRatePerSec,
  };
}

/**
 * The retention risk of a partition's unread records at its current pace; a topic with no settings (undefined)
 * is `unknown: not read yet` wherever something is unread.
 */
export function partitionRetentionRisk(
  settings: TopicRetentionSettings | undefined,
  position: AnalysedPosition,
): RetentionRisk {
  return retentionRisk(settings ?? UNREAD_SETTINGS, positionOf(position));
}

/**
 * The earliest its unread records can be deleted if the group read nothing more from now on (ms, 0: at any
 * moment): the deadline a drain must beat (lib/advisor/retention-plan.ts). Null when nothing is at risk even
 * then, or when the window has no known lower bound.
 */
export function deadlineIfUnread(
  settings: TopicRetentionSettings | undefined,
  position: AnalysedPosition,
): { earliestMs: number | null } | null {
  const stopped = retentionRisk(settings ?? UNREAD_SETTINGS, { ...positionOf(position), consumptionRatePerSec: 0 });
  return stopped.kind === 'at-risk' ? { earliestMs: stopped.earliestMs } : null;
}

/** The earliest possible deletion of an at-risk window: its lower bound, or its upper one when that is all. */
export function earliestPossibleMs(risk: RetentionRisk): number | null {
  if (risk.kind !== 'at-risk') return null;
  return risk.earliestMs ?? risk.latestMs;
}

const iso = (atMs: number, offsetMs: number | null) =>
  offsetMs === null ? null : new Date(atMs + Math.round(offsetMs)).toISOString();
/** Windows in whole ms: the rule's divisions leave float noise (7200000.000000002). */
export const wholeMs = (ms: number | null): number | null => (ms === null ? null : Math.round(ms));

/**
 * "in 2 h 40 min to 3 h 10 min records of orders-4 start being deleted unread": when, from the round, the
 * oldest unread record of `name` can be deleted.
 */
export function deletionWindowText(name: string, earliestMs: number | null, latestMs: number | null): string {
  const subject = `records of ${name}`;
  if (earliestMs === 0) return `${subject} can be deleted unread at any moment`;
  if (earliestMs === null && latestMs === null) return `${subject} are at risk of deletion, at a time not known`;
  if (earliestMs === null)
    return `by ${formatDuration(latestMs! / 1000)} at the latest ${subject} start being deleted unread`;
  if (latestMs === null)
    return `in ${formatDuration(earliestMs / 1000)} or later ${subject} start being deleted unread`;
  const from = formatDuration(earliestMs / 1000);
  const to = formatDuration(latestMs / 1000);
  return from === to
    ? `in about ${from} ${subject} start being deleted unread`
    : `in ${from} to ${to} ${subject} start being deleted unread`;
}

/** The API's shape of a risk (bigints as strings, windows from the round and as times) with its sentence. */
export function retentionRiskJson(
  risk: RetentionRisk,
  ref: { topic: string; partition: number },
  sampledAtMs: number,
): TRetentionRisk {
  const name = `${ref.topic}-${ref.partition}`;
  switch (risk.kind) {
    case 'caught-up':
      return { kind: risk.kind, summary: 'nothing unread' };
    case 'not-committed':
      return { kind: risk.kind, summary: 'never committed: nothing read yet, nothing to lose' };
    case 'unlimited':
      return { kind: risk.kind, summary: 'the topic keeps records without a time or size limit' };
    case 'compacted':
      return {
        kind: risk.kind,
        summary: 'compacted: records are replaced by newer ones with the same key, never deleted by age or size',
      };
    case 'unknown':
      return { kind: risk.kind, reason: risk.reason, summary: `retention risk unknown: ${risk.reason}` };
    case 'lost':
      return {
        kind: risk.kind,
        fromOffset: risk.fromOffset.toString(),
        toOffset: risk.toOffset.toString(),
        count: risk.count.toString(),
        summary: `${formatOffset(risk.count)} ${risk.count === 1n ? 'record' : 'records'} (${offsetRange(risk.fromOffset, risk.toOffset)}) were deleted unread: the committed offset is below the log start`,
      };
    case 'keeping-pace':
      return {
        kind: risk.kind,
        oldestUnreadAgeMs: wholeMs(risk.oldestUnreadAgeMs),
        retentionMs: risk.retentionMs,
        summary:
          'keeping pace' +
          (risk.oldestUnreadAgeMs !== null && risk.retentionMs !== null
            ? `: its oldest unread record is ${formatDuration(risk.oldestUnreadAgeMs / 1000)} old of ${formatDuration(risk.retentionMs / 1000)} retention`
            : ': nothing unread grows older than the retention'),
      };
    case 'at-risk':
      return {
        kind: risk.kind,
        earliestMs: wholeMs(risk.earliestMs),
        latestMs: wholeMs(risk.latestMs),
        earliestAt: iso(sampledAtMs, risk.earliestMs),
        latestAt: iso(sampledAtMs, risk.latestMs),
        rules: risk.rules,
        basis: risk.basis,
        alsoCompacted: risk.alsoCompacted,
        summary: capitalize(deletionWindowText(name, risk.earliestMs, risk.latestMs)),
      };
  }
}

/** The at-risk partition whose records can go first (by earliest possible deletion, then latest), or null. */
export function soonestDeletion(
  partitions: ReadonlyArray<{ topic: string; partition: number; risk: RetentionRisk }>,
  sampledAtMs: number,
): TSoonestDeletion | null {
  let best: { topic: string; partition: number; risk: Extract<RetentionRisk, { kind: 'at-risk' }> } | null = null;
  const key = (r: Extract<RetentionRisk, { kind: 'at-risk' }>) => [
    r.earliestMs ?? r.latestMs ?? Number.POSITIVE_INFINITY,
    r.latestMs ?? Number.POSITIVE_INFINITY,
  ];
  for (const p of partitions) {
    if (p.risk.kind !== 'at-risk') continue;
    if (best === null) {
      best = { ...p, risk: p.risk };
      continue;
    }
    const [a1, a2] = key(p.risk);
    const [b1, b2] = key(best.risk);
    if (a1! < b1! || (a1 === b1 && a2! < b2!)) best = { ...p, risk: p.risk };
  }
  if (best === null) return null;
  const { earliestMs, latestMs } = best.risk;
  return {
    topic: best.topic,
    partition: best.partition,
    earliestMs: wholeMs(earliestMs),
    latestMs: wholeMs(latestMs),
    earliestAt: iso(sampledAtMs, earliestMs),
    latestAt: iso(sampledAtMs, latestMs),
    summary: capitalize(deletionWindowText(`${best.topic}-${best.partition}`, earliestMs, latestMs)),
  };
}

// --- Record losses ------------------------------------------------------------------------------------------

/** A record_loss row as the analysis reads it. */
export interface LossEpisode {
  id: bigint;
  topic: string;
  partition: number;
  fromOffset: bigint;
  toOffset: bigint;
  count: bigint;
  basis: string;
  detectedAt: Date;
  updatedAt: Date;
  endedAt: Date | null;
  acknowledgedAt: Date | null;
  acknowledgedBy: string | null;
  acknowledgeReason: string | null;
  acknowledgedToOffset: bigint | null;
}

/**
 * Whether an operator has acknowledged the episode as it stands: acknowledged, and not extended past the
 * offset it reached then (records lost after the acknowledgement are news again). An acknowledgement written
 * before its offset was kept (acknowledgedToOffset null) covers the episode as it is.
 */
export function isAcknowledged(loss: LossEpisode): boolean {
  if (loss.acknowledgedAt === null) return false;
  return loss.acknowledgedToOffset === null || loss.toOffset <= loss.acknowledgedToOffset;
}

/** "1,204 records (offsets 88,100–89,303) deleted unread, first seen 14:02 UTC" (the date too on another day). */
export function lossSummary(loss: LossEpisode, nowMs: number): string {
  const records = `${formatOffset(loss.count)} ${loss.count === 1n ? 'record' : 'records'}`;
  return `${records} (${offsetRange(loss.fromOffset, loss.toOffset)}) deleted unread, first seen ${clockText(loss.detectedAt, nowMs)}`;
}

/** The partition's LOST reason: its unacknowledged episodes, newest first, joined. */
export function lostReason(losses: readonly LossEpisode[], nowMs: number): string {
  return [...losses]
    .sort((a, b) => b.detectedAt.getTime() - a.detectedAt.getTime())
    .map((loss) => lossSummary(loss, nowMs))
    .join('; ');
}

export function recordLossJson(loss: LossEpisode, nowMs: number): TRecordLoss {
  return {
    id: loss.id.toString(),
    topic: loss.topic,
    partition: loss.partition,
    fromOffset: loss.fromOffset.toString(),
    toOffset: loss.toOffset.toString(),
    count: loss.count.toString(),
    basis: loss.basis,
    detectedAt: loss.detectedAt.toISOString(),
    updatedAt: loss.updatedAt.toISOString(),
    endedAt: loss.endedAt?.toISOString() ?? null,
    open: loss.endedAt === null,
    acknowledged: isAcknowledged(loss),
    acknowledgedBy: loss.acknowledgedBy,
    acknowledgedAt: loss.acknowledgedAt?.toISOString() ?? null,
    acknowledgeReason: loss.acknowledgeReason,
    acknowledgedToOffset: loss.acknowledgedToOffset?.toString() ?? null,
    summary: lossSummary(loss, nowMs),
  };
}

/** "offset 88,100" or "offsets 88,100–89,303". */
export function offsetRange(from: bigint, to: bigint): string {
  return from === to ? `offset ${formatOffset(from)}` : `offsets ${formatOffset(from)}–${formatOffset(to)}`;
}

/** An offset or count with thousands separators, exact at any size. */
export function formatOffset(value: bigint): string {
  const digits = (value < 0n ? -value : value).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return value < 0n ? `-${digits}` : digits;
}

/** "14:02 UTC" on the same UTC day as `nowMs`, else "2026-12-06 14:02 UTC": a time in a sentence. */
export function clockText(at: Date, nowMs: number): string {
  const text = at.toISOString();
  const sameDay = text.slice(0, 10) === new Date(nowMs).toISOString().slice(0, 10);
  return `${sameDay ? '' : `${text.slice(0, 10)} `}${text.slice(11, 16)} UTC`;
}

/** "about 1,200 a minute": records per second as a per-minute count. */
export function perMinuteText(perSec: number): string {
  return `about ${formatNumber(Math.round(perSec * 60))} a minute`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
