// Pure: the capacity card's words about retention. From the analysed partitions (their retention windows at
// the current pace and their deadlines if nothing more were read) and the plan's verdict against those deadlines
// (lib/advisor/retention-plan.ts, through planCapacity), the card says when unread records of which partition
// can start being deleted, how many consumers finish first, or that none can and which records will go.

import type { RetentionPlan } from '../advisor/retention-plan';
import { formatDuration, plural } from '../format';
import type { TRetentionAdvice } from '../schemas/advice';
import type { PartitionAnalysis } from './group-analysis';
import { clockText, deletionWindowText, formatOffset, perMinuteText, wholeMs } from './retention';

/** How many at-risk partitions the statement names before "N more partitions later". */
export const NAMED_AT_RISK = 1;

export interface RetentionAdviceInput {
  partitions: readonly PartitionAnalysis[];
  sampledAtMs: number;
  /** Partitions the plan leaves out, by partitionKey-like `topic\u0000partition`, and why. */
  held: ReadonlyMap<string, 'quarantined' | 'own-processing'>;
  /** The plan's verdict; null when no plan was made (or no planned partition has a known deadline). */
  plan: { retention: RetentionPlan | null; recommendedConsumers: number; catchUpSec: number | null } | null;
  /** Maps a planned partition to the plan's number for it (planCapacity numbers positions with several topics). */
  plannerNumberOf: (p: { topic: string; partition: number }) => number | null;
}

const keyOf = (p: { topic: string; partition: number }) => `${p.topic}\u0000${p.partition}`;

/** The card's retention part; null when no partition's unread records are at risk. */
export function buildRetentionAdvice(input: RetentionAdviceInput): TRetentionAdvice | null {
  const { sampledAtMs } = input;
  const atRisk = input.partitions
    .flatMap((p) => (p.retentionRisk.kind === 'at-risk' ? [{ p, risk: p.retentionRisk }] : []))
    .sort(
      (a, b) =>
        (a.risk.earliestMs ?? a.risk.latestMs ?? Infinity) - (b.risk.earliestMs ?? b.risk.latestMs ?? Infinity) ||
        (a.p.row.topic < b.p.row.topic
          ? -1
          : a.p.row.topic > b.p.row.topic
            ? 1
            : a.p.row.partition - b.p.row.partition),
    );
  if (atRisk.length === 0) return null;
  const verdict = input.plan?.retention ?? null;
  const drainOf = new Map((verdict?.drains ?? []).map((d) => [d.partition, d]));
  const at = (ms: number | null) => (ms === null ? null : new Date(sampledAtMs + ms).toISOString());
  const partitions = atRisk.map(({ p, risk }) => {
    const held = input.held.get(keyOf(p.row)) ?? null;
    const number = held === null ? input.plannerNumberOf(p.row) : null;
    const drain = number === null ? undefined : drainOf.get(number);
    return {
      topic: p.row.topic,
      partition: p.row.partition,
      fromOffset: p.row.committedOffset?.toString() ?? null,
      earliestMs: wholeMs(risk.earliestMs),
      latestMs: wholeMs(risk.latestMs),
      earliestAt: at(wholeMs(risk.earliestMs)),
      latestAt: at(wholeMs(risk.latestMs)),
      deadlineMs: wholeMs(p.unreadDeadline?.earliestMs ?? null),
      drainSec: drain?.catchUpSec ?? null,
      inTime: drain?.inTime ?? null,
      held,
      /** Records lost per second once deletion starts: what arrives then, less what its consumer reads now. */
      lossPerSec:
        p.arrivalRatePerSec === null ? null : Math.max(0, p.arrivalRatePerSec - (p.consumptionRatePerSec ?? 0)),
    };
  });
  const state: TRetentionAdvice['state'] =
    verdict === null ? 'not-planned' : verdict.state === 'finish-first' ? 'finish-first' : verdict.state;
  const willBeLost = partitions
    .filter((p) => p.held !== null || p.inTime === false)
    .map((p) => ({
      topic: p.topic,
      partition: p.partition,
      fromOffset: p.fromOffset,
      startsAt: p.earliestAt ?? p.latestAt,
      perMinute: p.lossPerSec === null ? null : Math.round(p.lossPerSec * 60),
    }));

  const sentences: string[] = [];
  const named = partitions.slice(0, NAMED_AT_RISK).map((p) => {
    const when = p.earliestAt ?? p.latestAt;
    const window = deletionWindowText(`${p.topic}-${p.partition}`, p.earliestMs, p.latestMs);
    return when === null ? window : `${window} (around ${clockText(new Date(when), sampledAtMs)})`;
  });
  const more = partitions.length - named.length;
  sentences.push(`${capitalize(named.join('; '))}${more > 0 ? `; ${plural(more, 'more partition')} later` : ''}.`);
  const planned = input.plan;
  if (verdict !== null && planned !== null) {
    const drain =
      planned.catchUpSec === null ? 'never catches up' : `catches up in ${formatDuration(planned.catchUpSec)}`;
    if (verdict.state === 'in-time')
      sentences.push(
        `The plan's ${plural(planned.recommendedConsumers, 'consumer')} read every planned partition at risk first: it ${drain}.`,
      );
    else if (verdict.state === 'finish-first')
      sentences.push(`Scale to ${planned.recommendedConsumers} to finish first: the group then ${drain}.`);
    else sentences.push('No consumer count reads all of them first: a partition is read by one consumer at a time.');
  } else if (partitions.some((p) => p.held === null)) {
    sentences.push('No capacity plan could be made, so no consumer count is promised to finish first.');
  }
  for (const p of partitions) {
    if (p.held === null && p.inTime !== false) continue;
    const why =
      p.held === 'quarantined'
        ? `${p.topic}-${p.partition} is quarantined: `
        : p.held === 'own-processing'
          ? `${p.topic}-${p.partition} is held back by its own processing: `
          : '';
    const going = goingText(p, sampledAtMs);
    sentences.push(
      `${why === '' ? capitalize(going) : `${why}${going}`}${p.held === 'quarantined' ? ', unless it is released first' : ''}.`,
    );
  }
  const unknownDeadline = partitions.filter((p) => p.held === null && p.deadlineMs === null && verdict !== null);
  if (unknownDeadline.length > 0)
    sentences.push(
      `For ${unknownDeadline.map((p) => `${p.topic}-${p.partition}`).join(', ')} the earliest deletion is not known ` +
        '(the age of its oldest unread record is only a lower bound): the plan cannot promise to read it first.',
    );
  return {
    state,
    consumers: planned?.recommendedConsumers ?? null,
    catchUpSec: planned?.catchUpSec ?? null,
    partitions: partitions.map(({ lossPerSec: _rate, ...p }) => p),
    willBeLost,
    statement: sentences.join(' '),
  };
}

/** "records of orders-4 from offset 88,100 start being deleted unread around 14:02 UTC, about 600 a minute after that". */
function goingText(
  p: {
    topic: string;
    partition: number;
    fromOffset: string | null;
    earliestAt: string | null;
    latestAt: string | null;
    lossPerSec: number | null;
  },
  sampledAtMs: number,
): string {
  const from = p.fromOffset === null ? '' : ` from offset ${formatOffset(BigInt(p.fromOffset))}`;
  const when =
    p.earliestAt !== null
      ? ` around ${clockText(new Date(p.earliestAt), sampledAtMs)}`
      : p.latestAt !== null
        ? ` by ${clockText(new Date(p.latestAt), sampledAtMs)} at the latest`
        : '';
  const pace = p.lossPerSec !== null && p.lossPerSec > 0 ? `, ${perMinuteText(p.lossPerSec)} after that` : '';
  return `records of ${p.topic}-${p.partition}${from} start being deleted unread${when}${pace}`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
