// Pure: from one group's analysed samples to the capacity plan (planCapacity) and the advice list (adviseGroup).
// Every number the advisor needs is measured here from stored samples (member restarts by the caller, from the
// rebalance history: lib/advisor/member-restarts.ts); what cannot be measured is passed as unknown (null) and
// the caveat is written into `notes`; what has to be assumed (the client's poll settings) says so.

import {
  adviseGroup,
  KAFKAJS_CAPABILITIES,
  rebalanceProtocolOf,
  type OwnProcessingBound,
  type PollBudget,
} from '../advisor/advice';
import { planCapacity } from '../advisor/capacity';
import type { ResolvedClientSettings } from '../advisor/client-settings';
import { formatDuration, formatNumber, formatRate, plural } from '../format';
import type { MemberRestartCounts } from '../advisor/member-restarts';
import { estimateRebalancePause, type RebalancePause } from '../advisor/rebalance-pause';
import { observedPerConsumerRate, summarizeScaling, type ScalingEfficiency } from '../advisor/scaling-efficiency';
import { resolveResetPolicy, startingBacklog } from '../advisor/starting-backlog';
import { memberName } from '../members/member-name';
import type { TGroupAdvice } from '../schemas/advice';
import type { GroupAnalysis, PartitionAnalysis } from './group-analysis';
import { buildRetentionAdvice } from './retention-advice';
import { ratesBetweenCommits, sumPartitionSamples, type SamplePoint } from './partition-analysis';

export interface GroupAdviceInput {
  cluster: string;
  groupId: string;
  sampledAt: Date;
  protocol: string | null;
  /** The group's state in the newest round (describeGroups). */
  groupState?: string | null;
  analysis: GroupAnalysis;
  windowMs: number;
  targetCatchUpSec: number;
  isWardenConsumer: boolean;
  /** Rebalances in the hour before sampledAt; null when nothing records rebalances. */
  rebalancesPerHour: number | null;
  /** Restarts counted over windowMs of rebalance history (lib/advisor/member-restarts.ts); null: nothing records rebalances. */
  memberRestarts: (MemberRestartCounts & { windowMs: number; rejoinWithinMs: number }) | null;
  /** The poll settings assumed for this group's client (lib/advisor/client-settings.ts). */
  clientSettings: ResolvedClientSettings;
  quarantines: ReadonlyArray<{ topic: string; partition: number; offset: bigint; since: Date; reason: string }>;
  /** The group's measured scaling (lib/advisor/scaling-efficiency.ts); absent: none measured (linear assumed). */
  scaling?: ScalingEfficiency;
  /** The pause a change of the consumer count costs (lib/advisor/rebalance-pause.ts); absent: the default. */
  rebalancePause?: RebalancePause;
}

/**
 * The processing rate of one consumer, from the commits on the partitions each member owns now, summed per
 * sampler round (sumPartitionSamples) and measured commit to commit (ratesBetweenCommits):
 * - a member that had records waiting throughout the window never idled, so its consumption is its capacity;
 *   the plan uses the mean over such members;
 * - otherwise the busiest member's consumption is only a lower bound (it ran out of work at times).
 * Ownership is today's: a partition that moved during the window is counted for its current owner.
 */
export interface MemberRate {
  /** null or absent: unknown (samples stored without member ids). */
  memberId?: string | null;
  clientId: string;
  host: string | null;
  /** Committed records per second on the partitions it owns, measured commit to commit (0: not measured). */
  ratePerSec: number;
  /** It had records waiting throughout the window, so ratePerSec is its capacity, not a lower bound. */
  saturated: boolean;
}

export function measurePerConsumerRate(
  analysis: GroupAnalysis,
  windowMs: number,
  held: ReadonlySet<string> = new Set(),
): TGroupAdvice['perConsumerRate'] & { saturatedMembers: number; members: MemberRate[] } {
  // A quarantined partition's backlog is not work its consumer can do, so it neither counts as "records
  // waiting" nor adds to the rate.
  // A partition the member never committed holds no commits to measure between; summed with the others it
  // would make every round's total unknown and leave the member without a rate.
  const byPartition = new Map(
    analysis.partitions
      .filter((p) => !held.has(keyOf(p.row)) && p.row.committedOffset !== null)
      .map((p) => [keyOf(p.row), p]),
  );
  const members = analysis.members.map((member) => {
    const owned = member.partitions.map((tp) => byPartition.get(keyOf(tp))).filter((p) => p !== undefined);
    const rates = ratesBetweenCommits(sumPartitionSamples(owned.map((p) => p.history)), windowMs);
    return {
      member,
      rate: rates.consumptionRatePerSec ?? 0,
      saturated: rates.consumptionRatePerSec !== null && rates.hadBacklogThroughout,
    };
  });
  const memberRates: MemberRate[] = members.map((m) => ({
    memberId: m.member.memberId,
    clientId: m.member.clientId,
    host: m.member.host,
    ratePerSec: m.rate,
    saturated: m.saturated,
  }));
  const window = formatDuration(windowMs / 1000);
  const saturated = members.filter((m) => m.saturated && m.rate > 0);
  if (saturated.length > 0) {
    const mean = saturated.reduce((sum, m) => sum + m.rate, 0) / saturated.length;
    return {
      ratePerSec: mean,
      isLowerBound: false,
      saturatedMembers: saturated.length,
      members: memberRates,
      basis: `mean of ${plural(saturated.length, 'consumer')} that had records waiting throughout the last ${window}`,
    };
  }
  const busiest = members.filter((m) => m.rate > 0).sort((a, b) => b.rate - a.rate)[0];
  if (busiest) {
    return {
      ratePerSec: busiest.rate,
      isLowerBound: true,
      saturatedMembers: 0,
      members: memberRates,
      basis:
        `no consumer had records waiting throughout the last ${window}; the busiest (${busiest.member.name}) committed ` +
        `${formatRate(busiest.rate)}, only a lower bound of what one consumer can do`,
    };
  }
  return {
    ratePerSec: null,
    isLowerBound: false,
    saturatedMembers: 0,
    members: memberRates,
    basis:
      members.length === 0
        ? 'the group has no member owning a partition'
        : `fewer than two commits in the last ${window}, so no rate between commits`,
  };
}

/**
 * The poll budget of a group's members: a full batch (max.poll.records) times the time one record takes,
 * against max.poll.interval.ms, beyond which a Java-style client (one that processes between polls) is expelled.
 * - Warden's own consumer core hands every fetched batch off and returns at once, so fetching and heartbeats
 *   never wait for processing: there is no poll budget to exceed (null, with the reason as a note).
 * - Other groups: the broker shows neither setting, so both are assumptions (resolveClientSettings: the Java
 *   client's defaults unless ADVISOR_CLIENT_SETTINGS says otherwise), and the time per record is measured: the
 *   mean over the window of the slowest member that had records waiting throughout (1 / its committed
 *   records per second; a member with records waiting gets full batches). A member that ran out of records is
 *   not measured (its rate is only a lower bound of what it can do, and its batches are not full).
 * - What it cannot see: a member so slow that it never commits within the window (expelled before its first
 *   commit, the rebalance loop at its worst) has no rate at all; the rebalance-rate advice covers that case.
 *   A mean hides slow outliers: single records can take much longer than it.
 */
export function measurePollBudget(
  members: readonly MemberRate[],
  settings: ResolvedClientSettings,
  windowMs: number,
  isWardenConsumer: boolean,
): { budget: PollBudget | null; note: string | null } {
  if (isWardenConsumer) {
    return {
      budget: null,
      note:
        'Poll budget does not apply: the Warden consumer core hands each fetched batch off and returns at once, so ' +
        'fetching and heartbeats never wait for processing; a slow record holds only its own partition (see the commit prefix).',
    };
  }
  const saturated = members.filter((m) => m.saturated && m.ratePerSec > 0);
  const slowest = [...saturated].sort((a, b) => a.ratePerSec - b.ratePerSec)[0];
  if (!slowest) return { budget: null, note: null };
  const slowRecordMs = Math.round((1000 / slowest.ratePerSec) * 10) / 10;
  return {
    budget: {
      maxBatchRecords: settings.maxPollRecords,
      slowRecordMs,
      limitMs: settings.maxPollIntervalMs,
      limitName: 'max.poll.interval.ms',
      slowRecordBasis:
        `mean estimate, 1 / ${Number(slowest.ratePerSec.toPrecision(3))} records/s committed by ${memberName(slowest)}, the slowest of ` +
        `${plural(saturated.length, 'member')} with records waiting throughout the last ${formatDuration(windowMs / 1000)}; ` +
        'single records may take longer',
      assumed: `${settings.origin.maxPollRecords} as the batch size (a member with records waiting gets full batches) and ${settings.origin.maxPollIntervalMs} as the limit`,
    },
    note: null,
  };
}

/** Lag growth, arrivals and sample spacing over `samples` (all committed); null with fewer than two. */
function lagChange(
  samples: readonly SamplePoint[],
): { growth: number; arrivalPerSec: number; consumptionPerSec: number; intervalSec: number } | null {
  const first = samples[0];
  const last = samples[samples.length - 1];
  if (!first || !last || first === last || first.committedOffset === null || last.committedOffset === null) return null;
  const spanSec = (last.atMs - first.atMs) / 1000;
  if (spanSec <= 0) return null;
  return {
    growth: last.logEndOffset - last.committedOffset - (first.logEndOffset - first.committedOffset),
    arrivalPerSec: (last.logEndOffset - first.logEndOffset) / spanSec,
    consumptionPerSec: (last.committedOffset - first.committedOffset) / spanSec,
    intervalSec: spanSec / (samples.length - 1),
  };
}

/** Lag that sampling itself can show: two sample intervals of arrivals, and at least `floor` records. */
const samplingNoise = (change: { arrivalPerSec: number; intervalSec: number }, floor: number) =>
  Math.max(floor, 2 * change.arrivalPerSec * change.intervalSec);

/**
 * Whether the group kept pace over the window: the backlog of its partitions outside `excluded` (quarantined,
 * or held back by their own processing) did not grow by more than what sampling itself can show (two sampler
 * intervals of arrivals, at least one record per partition). Judged on the lag itself, not on two rates measured over different spans, whose noise
 * would otherwise decide it.
 */
function keptUp(analysis: GroupAnalysis, windowMs: number, excluded: ReadonlySet<string>): boolean {
  const workable = analysis.partitions.filter((p) => !excluded.has(keyOf(p.row)));
  const summed = sumPartitionSamples(workable.map((p) => p.history));
  const newest = summed[summed.length - 1];
  if (!newest) return false;
  const change = lagChange(summed.filter((s) => s.atMs >= newest.atMs - windowMs && s.committedOffset !== null));
  return change !== null && change.growth <= samplingNoise(change, workable.length);
}

const keyOf = (p: { topic: string; partition: number }) => `${p.topic}\u0000${p.partition}`;

/** Consecutive samples with records waiting before a partition's own processing is judged (20 s at 5 s). */
export const OWN_BOUND_MIN_SAMPLES = 5;
/** It is judged on the newest samples of that run only (a minute at 5 s), so a backlog that drains now is not. */
export const OWN_BOUND_MAX_SAMPLES = 12;

/**
 * Partitions held back by their own processing rather than by their consumer's capacity: records waited on
 * it at each of the last OWN_BOUND_MIN_SAMPLES samples or more and its lag grew over them (at most the last
 * OWN_BOUND_MAX_SAMPLES) beyond sampling noise, while another partition of the same member, with arrivals,
 * was caught up over the same span (its lag within sampling noise of zero and not growing): the consumer ran
 * out of work there. A consumer short of capacity has records waiting on all its busy partitions; one that
 * is caught up elsewhere but falls behind here is held back by this partition alone: its records run in
 * order (a hot key, partition ordering) or few at a time, which no consumer count changes, since one
 * consumer reads a partition. A member owning one workable partition cannot be judged, nor can a partition
 * without commits.
 */
export function findOwnProcessingBound(
  analysis: GroupAnalysis,
  excluded: ReadonlySet<string>,
): Map<string, OwnProcessingBound> {
  const found = new Map<string, OwnProcessingBound>();
  const byKey = new Map(analysis.partitions.map((p) => [keyOf(p.row), p]));
  for (const member of analysis.members) {
    const owned = member.partitions
      .map((tp) => byKey.get(keyOf(tp)))
      .filter((p): p is PartitionAnalysis => p !== undefined && !excluded.has(keyOf(p.row)));
    if (owned.length < 2) continue;
    for (const p of owned) {
      let runStart = p.history.length;
      while (runStart > 0) {
        const sample = p.history[runStart - 1]!;
        if (sample.committedOffset === null || sample.logEndOffset <= sample.committedOffset) break;
        runStart -= 1;
      }
      const run = p.history.slice(Math.max(runStart, p.history.length - OWN_BOUND_MAX_SAMPLES));
      const change = run.length >= OWN_BOUND_MIN_SAMPLES ? lagChange(run) : null;
      if (!change || change.growth <= samplingNoise(change, 1)) continue;
      const sinceMs = run[0]!.atMs;
      const othersCaughtUp = owned.some((q) => {
        if (q === p) return false;
        const span = q.history.filter((sample) => sample.atMs >= sinceMs && sample.committedOffset !== null);
        const other = lagChange(span);
        const newest = span[span.length - 1];
        if (!other || !newest || other.arrivalPerSec <= 0 || other.growth > samplingNoise(other, 1)) return false;
        // Caught up: what waits there is no more than sampling shows (records done but not yet committed).
        return newest.logEndOffset - newest.committedOffset! <= samplingNoise(other, 1);
      });
      if (othersCaughtUp)
        found.set(keyOf(p.row), {
          arrivalRatePerSec: change.arrivalPerSec,
          consumptionRatePerSec: change.consumptionPerSec,
          sinceMs,
        });
    }
  }
  return found;
}

export function buildGroupAdvice(input: GroupAdviceInput): Omit<TGroupAdvice, 'trackRecord'> {
  const { analysis } = input;
  const scaling = input.scaling ?? summarizeScaling([], input.sampledAt.getTime());
  const notes: string[] = [];
  const held = new Set(input.quarantines.map(keyOf));
  const {
    saturatedMembers: _saturated,
    members: memberRates,
    ...measuredRate
  } = measurePerConsumerRate(analysis, input.windowMs, held);
  const consumers = analysis.members.length;
  const perConsumerRate = capByObservedDrain(measuredRate, scaling, consumers);
  const ownBound = findOwnProcessingBound(analysis, held);
  const topics = new Set(analysis.partitions.map((p) => p.row.topic));
  const multiTopic = topics.size > 1;

  const resetPolicy = resolveResetPolicy(input.isWardenConsumer, input.clientSettings);
  const rebalancePause = input.rebalancePause ?? estimateRebalancePause([]);
  const partitions = analysis.partitions.map((p) => {
    const { backlog, basis } = startingBacklog(
      { lag: p.lag, logStartOffset: Number(p.row.logStartOffset), logEndOffset: Number(p.row.logEndOffset) },
      resetPolicy.policy,
    );
    return {
      topic: p.row.topic,
      partition: p.row.partition,
      arrivalRatePerSec: p.arrivalRatePerSec,
      consumptionRatePerSec: p.consumptionRatePerSec,
      backlog,
      backlogBasis: basis,
      hadBacklogThroughout: p.rates.hadBacklogThroughout,
      logRecords: Number(p.row.logEndOffset - p.row.logStartOffset),
    };
  });

  // Quarantined partitions wait for an operator, not for consumers: planning them would recommend scaling
  // for a backlog no consumer may touch.
  const workable = partitions.filter((p) => !held.has(keyOf(p)));
  if (workable.length < partitions.length) {
    const count = partitions.length - workable.length;
    notes.push(
      `${plural(count, 'quarantined partition')} ${count === 1 ? 'is' : 'are'} left out of the plan: ${count === 1 ? 'it waits' : 'they wait'} for an operator, not for more consumers.`,
    );
  }
  // Likewise a partition held back by its own processing: more consumers would not drain it (see the advice).
  const planned = workable.filter((p) => !ownBound.has(keyOf(p)));
  for (const p of workable.filter((q) => ownBound.has(keyOf(q)))) {
    const bound = ownBound.get(keyOf(p))!;
    notes.push(
      `${p.topic}-${p.partition} is left out of the plan: it is held back by its own processing ` +
        `(${formatRate(bound.consumptionRatePerSec)} against ${formatRate(bound.arrivalRatePerSec)} arriving) while its consumer keeps up elsewhere, ` +
        'which more consumers would not change (see the advice).',
    );
  }
  const notPlanned = new Set([...held, ...ownBound.keys()]);
  const uncommitted = planned.filter((p) => p.backlogBasis !== 'committed');
  const recordsFromLogStart = uncommitted.reduce((sum, p) => sum + p.logRecords, 0);
  let catchUpSecFromLogStart: number | null = null;
  const unknownArrival = planned.filter((p) => p.arrivalRatePerSec === null).length;

  let plan: TGroupAdvice['plan'] = null;
  let retentionVerdict: ReturnType<typeof planCapacity>['retention'] = null;
  let planUnavailableReason: string | null = null;
  // planCapacity numbers partitions; with several topics their numbers collide, so it gets positions instead.
  const plannerNumberOf = (ref: { topic: string; partition: number }): number | null => {
    const index = planned.findIndex((p) => p.topic === ref.topic && p.partition === ref.partition);
    return index === -1 ? null : multiTopic ? index : ref.partition;
  };
  const analysedOf = new Map(analysis.partitions.map((p) => [keyOf(p.row), p]));
  // The at-risk planned partitions whose earliest deletion (if nothing more were read) is known: the plan
  // recommends a count that reads them first when it can (lib/advisor/retention-plan.ts).
  const deadlines = planned.flatMap((p) => {
    const analysed = analysedOf.get(keyOf(p));
    const earliestMs = analysed?.unreadDeadline?.earliestMs ?? null;
    const number = plannerNumberOf(p);
    return analysed?.retentionRisk.kind === 'at-risk' && earliestMs !== null && number !== null
      ? [{ partition: number, deadlineSec: earliestMs / 1000 }]
      : [];
  });
  let keepingUp = false;
  if (partitions.length === 0) planUnavailableReason = 'The group has no partitions in its latest sample.';
  else if (workable.length === 0)
    planUnavailableReason = 'Every partition is quarantined: resolve the quarantines first.';
  else if (planned.length === 0)
    planUnavailableReason =
      'Every workable partition is held back by its own processing: more consumers would not help (see the advice).';
  else if (unknownArrival === planned.length)
    planUnavailableReason = 'Not enough samples yet: rates need two samples in the window.';
  else if (perConsumerRate.ratePerSec === null) {
    planUnavailableReason = `No processing rate measured (${perConsumerRate.basis}), so a consumer count cannot be planned.`;
  } else if (perConsumerRate.isLowerBound && keptUp(analysis, input.windowMs, notPlanned)) {
    // Nobody was saturated and the lag did not grow: a plan from a lower-bound rate would recommend scaling a
    // group that needs nothing (one consumer doing exactly the arrival rate looks like "never catches up").
    keepingUp = true;
    planUnavailableReason =
      `Keeping up with ${plural(consumers, 'consumer')}. No consumer had records waiting throughout the last ` +
      `${formatDuration(input.windowMs / 1000)}, so capacity is not measurable and no scaling is needed.`;
  } else {
    if (unknownArrival > 0)
      notes.push(`${plural(unknownArrival, 'partition')} without a measured arrival rate: counted as 0.`);
    if (multiTopic)
      notes.push(
        'The group reads several topics: partition numbers in the summary are positions in the partition table.',
      );
    // An unknown starting backlog is counted as empty (where latest would start); the card says the plan is
    // then no promise and what the log start would add (offsetReset below).
    const plannerPartitions = (fromLogStart: boolean) =>
      planned.map((p, index) => ({
        partition: multiTopic ? index : p.partition,
        arrivalRatePerSec: p.arrivalRatePerSec ?? 0,
        backlog: p.backlog ?? (fromLogStart ? p.logRecords : 0),
      }));
    const planWith = (fromLogStart: boolean) =>
      planCapacity({
        ...(fromLogStart ? {} : { deadlines }),
        partitions: plannerPartitions(fromLogStart),
        consumers,
        perConsumerRatePerSec: perConsumerRate.ratePerSec!,
        targetCatchUpSec: input.targetCatchUpSec,
        perConsumerRateIsLowerBound: perConsumerRate.isLowerBound,
        // Linear scaling is stated on the card next to the plan, not repeated in every summary.
        ...(scaling.basis === 'measured'
          ? { scaling: { efficiency: scaling.efficiency, statement: scaling.statement } }
          : {}),
        rebalancePause: { sec: rebalancePause.sec, statement: rebalancePause.statement },
      });
    const result = planWith(false);
    if (resetPolicy.policy === null && uncommitted.length > 0)
      catchUpSecFromLogStart =
        planWith(true).catchUpSecByConsumers.find((point) => point.consumers === result.recommendedConsumers)
          ?.catchUpSec ?? null;
    const refOf = (n: number) => {
      const p = multiTopic ? planned[n] : planned.find((q) => q.partition === n);
      return { topic: p!.topic, partition: p!.partition };
    };
    const { retention: verdict, ...planFields } = result;
    plan = { ...planFields, hotPartitions: result.hotPartitions.map(refOf) };
    retentionVerdict = verdict;
  }
  const heldFor = new Map<string, 'quarantined' | 'own-processing'>([
    ...[...ownBound.keys()].map((key) => [key, 'own-processing'] as const),
    ...[...held].map((key) => [key, 'quarantined'] as const),
  ]);
  const retention = buildRetentionAdvice({
    partitions: analysis.partitions,
    sampledAtMs: input.sampledAt.getTime(),
    held: heldFor,
    plan:
      plan === null
        ? null
        : { retention: retentionVerdict, recommendedConsumers: plan.recommendedConsumers, catchUpSec: plan.catchUpSec },
    plannerNumberOf,
  });

  const pollBudget = measurePollBudget(memberRates, input.clientSettings, input.windowMs, input.isWardenConsumer);
  if (pollBudget.note) notes.push(pollBudget.note);

  const quarantineOf = new Map(input.quarantines.map((q) => [keyOf(q), q]));
  const nowMs = input.sampledAt.getTime();
  const advice = adviseGroup({
    partitions: analysis.partitions.map((p) => {
      const q = quarantineOf.get(`${p.row.topic}\u0000${p.row.partition}`);
      return {
        topic: p.row.topic,
        partition: p.row.partition,
        lag: p.lag,
        arrivalRatePerSec: p.arrivalRatePerSec,
        timeLagMs: p.timeLag.ms,
        quarantinedForMs: q ? Math.max(0, nowMs - q.since.getTime()) : null,
        quarantinedOffset: q ? q.offset.toString() : null,
        quarantineReason: q ? q.reason : null,
        ownProcessingBound: ownBound.get(keyOf(p.row)) ?? null,
        status: p.status,
        statusReason: p.evaluation.reason,
        ownerName:
          analysis.members.find((m) =>
            m.partitions.some((tp) => tp.topic === p.row.topic && tp.partition === p.row.partition),
          )?.name ?? null,
      };
    }),
    members: consumers,
    groupState: input.groupState ?? null,
    groupId: input.groupId,
    // A lower-bound rate would flag partitions that merely match what the consumer happened to do as hot.
    perConsumerRatePerSec: perConsumerRate.isLowerBound ? null : perConsumerRate.ratePerSec,
    pollBudget: pollBudget.budget,
    rebalancesPerHour: input.rebalancesPerHour,
    rebalanceProtocol: rebalanceProtocolOf(input.protocol),
    assignor: input.protocol,
    client: input.isWardenConsumer ? KAFKAJS_CAPABILITIES : null,
    memberRestarts: input.memberRestarts,
  });

  return {
    cluster: input.cluster,
    groupId: input.groupId,
    sampledAt: input.sampledAt.toISOString(),
    windowMs: input.windowMs,
    targetCatchUpSec: input.targetCatchUpSec,
    consumers,
    perConsumerRate,
    partitions: partitions.map(({ logRecords: _records, ...p }) => p),
    planState: plan !== null ? 'planned' : keepingUp ? 'keeping-up' : 'unavailable',
    plan,
    planUnavailableReason,
    notes,
    advice,
    scaling: {
      basis: scaling.basis,
      efficiency: scaling.efficiency,
      sampleSize: scaling.sampleSize,
      ageMs: scaling.ageMs,
      latest: scaling.latest && {
        at: new Date(scaling.latest.atMs).toISOString(),
        fromConsumers: scaling.latest.fromConsumers,
        toConsumers: scaling.latest.toConsumers,
        speedup: scaling.latest.speedup,
        linearSpeedup: scaling.latest.linearSpeedup,
      },
      statement: scaling.statement,
    },
    offsetReset: {
      policy: resetPolicy.policy,
      basis: resetPolicy.basis,
      uncommittedPartitions: uncommitted.length,
      recordsFromLogStart,
      catchUpSecFromLogStart,
      statement: offsetResetStatement(
        resetPolicy,
        uncommitted.length,
        recordsFromLogStart,
        plan,
        catchUpSecFromLogStart,
      ),
    },
    rebalancePause,
    retention,
  };
}

/**
 * The per-consumer rate the plan may count on: the measured one, but never more than the group's own drain
 * at the current count since its newest measured change (observedPerConsumerRate says why). A lower-bound
 * rate stays as it is: capping it would only make it a lower bound of a lower bound.
 */
function capByObservedDrain(
  rate: TGroupAdvice['perConsumerRate'],
  scaling: ScalingEfficiency,
  consumers: number,
): TGroupAdvice['perConsumerRate'] {
  const observed = observedPerConsumerRate(scaling, consumers);
  if (
    rate.ratePerSec === null ||
    rate.isLowerBound ||
    observed === null ||
    observed <= 0 ||
    observed >= rate.ratePerSec
  )
    return rate;
  const latest = scaling.latest!;
  return {
    ratePerSec: observed,
    isLowerBound: false,
    basis:
      `the group's ${formatRate(latest.afterPerSec)} since it went ${latest.fromConsumers} → ${latest.toConsumers} consumers, ` +
      `shared by ${plural(consumers, 'consumer')}; the ${rate.basis} (${formatRate(rate.ratePerSec)}) still counts work done on ` +
      'their partitions before the change',
  };
}

/** What the plan counts on partitions never committed, and when it is no promise. */
function offsetResetStatement(
  reset: { policy: 'earliest' | 'latest' | null; basis: string },
  uncommitted: number,
  records: number,
  plan: TGroupAdvice['plan'],
  fromLogStartSec: number | null,
): string | null {
  if (uncommitted === 0) return null;
  const head = `${plural(uncommitted, 'partition')} never committed`;
  if (reset.policy === 'earliest')
    return `${head}: counted from the log start (${formatNumber(records)} records), ${reset.basis}.`;
  if (reset.policy === 'latest') return `${head}: counted as empty (the group starts at the log end), ${reset.basis}.`;
  const alternative =
    plan === null
      ? ''
      : ` From the log start they hold ${formatNumber(records)} records: ${plan.recommendedConsumers} ` +
        `${plan.recommendedConsumers === 1 ? 'consumer' : 'consumers'} would then ${
          fromLogStartSec === null ? 'never catch up' : `take ${formatDuration(fromLogStartSec)}`
        }.`;
  return (
    `T is not a promise: ${head}, and ${reset.basis}, so the plan counts ${uncommitted === 1 ? 'it' : 'them'} as empty ` +
    `(auto.offset.reset=latest).${alternative} Set "autoOffsetReset" for the group in ADVISOR_CLIENT_SETTINGS.`
  );
}
