import type { DisplayZone } from '@/lib/charts/axis';
import { formatDuration, formatNumber, plural } from '@/lib/format';
import type { TRetentionAdvice } from '@/lib/schemas/advice';
import type { TRetentionRisk, TSoonestDeletion } from '@/lib/schemas/groups';
import type { TRecordLoss } from '@/lib/schemas/record-losses';
import { formatDateTime } from './format';

// How the dashboard words retention risk and record losses in little room: a table cell, an overview column, a
// loss card's lines. The full sentences (`summary`) come from the API; these are their short forms. Windows are
// from the group's round (the API's `sampledAt`), as the API gives them.

/** How loud a retention cell is: quiet (nothing to do), unknown (never read as safe), warn (at risk), bad. */
export type RetentionTone = 'quiet' | 'unknown' | 'warn' | 'bad';

export interface RetentionCellText {
  text: string;
  tone: RetentionTone;
  /** The API's sentence, with the reason or how the window was obtained: a tooltip. */
  title: string;
}

/** "1204" -> "1,204": an int64 count or offset as the API sends it (a string), exact at any size. */
export function groupDigits(value: string): string {
  return value.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

const duration = (ms: number) => formatDuration(ms / 1000);

/**
 * When the oldest unread record can go, from the round: "deleted from 2 h 40 min, at the latest 3 h 10 min";
 * "deletable now" once it is old enough to go (earliest 0); "being deleted now" once even the latest bound passed.
 */
export function deletionWindowShort(earliestMs: number | null, latestMs: number | null): string {
  if (earliestMs === 0) {
    if (latestMs === 0) return 'being deleted now';
    return latestMs === null ? 'deletable now' : `deletable now, at the latest ${duration(latestMs)}`;
  }
  if (earliestMs === null)
    return latestMs === null ? 'at risk, when not known' : `deleted at the latest ${duration(latestMs)}`;
  if (latestMs === null) return `deleted from ${duration(earliestMs)}`;
  const from = duration(earliestMs);
  const to = duration(latestMs);
  return from === to ? `deleted in about ${from}` : `deleted from ${from}, at the latest ${to}`;
}

const QUIET_TEXT: Record<Exclude<TRetentionRisk['kind'], 'at-risk' | 'lost' | 'unknown'>, string> = {
  'caught-up': 'caught up',
  'not-committed': 'nothing read',
  unlimited: 'no limit',
  compacted: 'compacted',
  'keeping-pace': 'keeping pace',
};

/** A partition's retention risk for its table cell. */
export function retentionCell(risk: TRetentionRisk): RetentionCellText {
  switch (risk.kind) {
    case 'at-risk':
      return {
        text: deletionWindowShort(risk.earliestMs, risk.latestMs),
        tone: risk.earliestMs === 0 ? 'bad' : 'warn',
        title: [
          `${risk.summary}.`,
          `${capitalize(risk.basis)}.`,
          ...(risk.alsoCompacted
            ? ['The topic is also compacted: a newer record with the same key can replace one.']
            : []),
        ].join(' '),
      };
    case 'lost':
      return {
        text: `lost: ${groupDigits(risk.count)} record${risk.count === '1' ? '' : 's'}`,
        tone: 'bad',
        title: capitalize(risk.summary),
      };
    case 'unknown':
      return { text: 'unknown', tone: 'unknown', title: capitalize(risk.summary) };
    default:
      return { text: QUIET_TEXT[risk.kind], tone: 'quiet', title: capitalize(risk.summary) };
  }
}

/**
 * The partition table's sort value, largest worst: lost, then at risk soonest first (a window without bounds
 * after those with one), then unknown, then the rest.
 */
export function retentionSortValue(risk: TRetentionRisk): number {
  switch (risk.kind) {
    case 'lost':
      return 3e15;
    case 'at-risk':
      return 2e15 - Math.min(risk.earliestMs ?? risk.latestMs ?? 1e15, 1e15);
    case 'unknown':
      return 1;
    default:
      return 0;
  }
}

/** The overview's column: "orders-4 in 3 h 10 min" (the earliest; "by" when only the latest is known). */
export function soonestDeletionText(soonest: TSoonestDeletion): string {
  const name = `${soonest.topic}-${soonest.partition}`;
  const { earliestMs, latestMs } = soonest;
  if (earliestMs === 0) return `${name} now`;
  if (earliestMs !== null) return `${name} in ${duration(earliestMs)}`;
  return latestMs === null ? `${name}, when not known` : `${name} by ${duration(latestMs)}`;
}

/** "open: the committed offset is still below the log start" or "ended 2026-12-07 14:10:02". */
export function lossStateText(loss: Pick<TRecordLoss, 'open' | 'endedAt'>, zone: DisplayZone): string {
  if (loss.open || loss.endedAt === null) return 'open: the committed offset is still below the log start';
  return `ended ${formatDateTime(loss.endedAt, zone)}`;
}

/**
 * Who acknowledged a loss, when and why; for an episode that grew past its acknowledgement, that it needs one
 * again; null when nobody has.
 */
export function acknowledgementText(
  loss: Pick<
    TRecordLoss,
    'acknowledged' | 'acknowledgedBy' | 'acknowledgedAt' | 'acknowledgeReason' | 'acknowledgedToOffset'
  >,
  zone: DisplayZone,
): string | null {
  if (loss.acknowledgedBy === null) return null;
  const who = `acknowledged by ${loss.acknowledgedBy} at ${formatDateTime(loss.acknowledgedAt, zone)}`;
  if (!loss.acknowledged) {
    const upTo = loss.acknowledgedToOffset === null ? '' : ` up to offset ${groupDigits(loss.acknowledgedToOffset)}`;
    return `${who}${upTo}; more records were lost since, so it needs acknowledging again`;
  }
  return loss.acknowledgeReason === null ? who : `${who}: ${loss.acknowledgeReason}`;
}

/**
 * The capacity plan's retention verdict in a few words: how many consumers read every at-risk partition before
 * retention can delete its records, or that none can.
 */
export function retentionVerdictText(retention: Pick<TRetentionAdvice, 'state' | 'consumers'>): string {
  const consumers = retention.consumers === null ? null : plural(retention.consumers, 'consumer');
  switch (retention.state) {
    case 'in-time':
      return consumers === null ? 'read before deletion' : `${consumers} read everything at risk before deletion`;
    case 'finish-first':
      return consumers === null ? 'more consumers finish first' : `${consumers} needed to finish before deletion`;
    case 'none-can':
      return 'no consumer count finishes first: records will be lost';
    case 'not-planned':
      return 'no plan: no consumer count is promised to finish first';
  }
}

/** "orders-4 from offset 88,100, from 2026-12-07 14:02:00, about 600 a minute": records the plan will not save. */
export function willBeLostText(p: TRetentionAdvice['willBeLost'][number], zone: DisplayZone): string {
  const from = p.fromOffset === null ? '' : ` from offset ${groupDigits(p.fromOffset)}`;
  const when = p.startsAt === null ? ', when not known' : `, starting ${formatDateTime(p.startsAt, zone)}`;
  const pace = p.perMinute === null || p.perMinute === 0 ? '' : `, about ${formatNumber(p.perMinute)} a minute`;
  return `${p.topic}-${p.partition}${from}${when}${pace}`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
