// "Other advice" for a consumer group: each item names the numbers that triggered it and what to do.
// Pure: the caller measures everything (rates, rebalance counts, restarts, quarantine ages) and passes it in.

import { formatDuration, formatMillis, formatNumber, formatPercent, formatRate, plural } from '../format';
import type { PartitionStatus } from '../lag/partition-status';
import { isHotPartition } from './capacity';

export type AdviceSeverity = 'info' | 'warning' | 'critical';

export interface Advice {
  /** Stable across calls for the same finding (rule, plus topic-partition for per-partition rules). */
  id: string;
  severity: AdviceSeverity;
  title: string;
  detail: string;
  /** The numbers (and names) that triggered the advice. */
  evidence: Record<string, number | string>;
}

export interface ClientCapabilities {
  name: string;
  supportsCooperative: boolean;
  supportsStaticMembership: boolean;
  supportsKip848: boolean;
}

/** kafkajs 2.2.4: eager protocol only, round-robin assigner, no group.instance.id, no KIP-848. */
export const KAFKAJS_CAPABILITIES: ClientCapabilities = {
  name: 'kafkajs',
  supportsCooperative: false,
  supportsStaticMembership: false,
  supportsKip848: false,
};

export interface AdvicePartition {
  topic: string;
  partition: number;
  /** Offsets behind the log end; null when unknown (no commit yet). */
  lag: number | null;
  /** Log-end growth per second; null when not measured. */
  arrivalRatePerSec: number | null;
  timeLagMs?: number | null;
  /** How long Warden has held this partition in quarantine; null or absent when it is not quarantined. */
  quarantinedForMs?: number | null;
  quarantinedOffset?: string | null;
  quarantineReason?: string | null;
  /**
   * Measured as held back by its own processing (its lag grows while its consumer keeps up on its other
   * partitions; lib/analysis/group-advice.ts).
   */
  ownProcessingBound?: OwnProcessingBound | null;
  /** Burrow's status of the partition and its reason (lib/lag/partition-status.ts evaluatePartition). */
  status?: PartitionStatus | null;
  statusReason?: string | null;
  /** Names of the partition's owner as every page names it; null: unassigned. */
  ownerName?: string | null;
}

/** A partition held back by its own processing: its rates since records started waiting on it. */
export interface OwnProcessingBound {
  arrivalRatePerSec: number;
  consumptionRatePerSec: number;
  /** The first sample the rates were measured from (records were waiting from then on). */
  sinceMs: number;
}

export interface AdviceInput {
  /** Every partition the group consumes (all its topics). */
  partitions: readonly AdvicePartition[];
  /** Members in the group now. */
  members: number;
  /** The group's state (describeGroups: Stable, Empty, Dead, PreparingRebalance, ...); null: unknown. */
  groupState?: string | null;
  groupId?: string;
  /** Measured rate of one consumer with work; null when unknown (the hot-partition rule is then skipped). */
  perConsumerRatePerSec: number | null;
  /** Worst-case time to process one fetched batch against the limit that expels a member; null: unknown. */
  pollBudget: PollBudget | null;
  rebalancesPerHour: number | null;
  /** 'consumer' is the KIP-848 protocol. null: unknown. See rebalanceProtocolOf. */
  rebalanceProtocol: 'eager' | 'cooperative' | 'consumer' | null;
  assignor: string | null;
  /** The members' client library, when known. */
  client: ClientCapabilities | null;
  /**
   * Member restarts observed (a member left and the same client/host rejoined, lib/advisor/member-restarts.ts)
   * and how many got a new member id; staticMemberRestarts: how many new ids carried a group.instance.id
   * (static membership in use, so the rule stays silent). windowMs / rejoinWithinMs only go into the evidence.
   */
  memberRestarts: {
    restarts: number;
    restartsWithNewMemberId: number;
    staticMemberRestarts?: number;
    windowMs?: number;
    rejoinWithinMs?: number;
  } | null;
  thresholds?: Partial<AdviceThresholds>;
}

export interface PollBudget {
  maxBatchRecords: number;
  slowRecordMs: number;
  limitMs: number;
  limitName: string;
  /** How slowRecordMs was obtained (e.g. a mean measured from commits); shown in the detail and the evidence. */
  slowRecordBasis?: string;
  /** Which of the numbers are assumed rather than read from the client; shown in the detail and the evidence. */
  assumed?: string;
}

export interface AdviceThresholds {
  /** Poll budget: warning when the worst-case batch time is above this fraction of the limit. */
  pollBudgetWarnFraction: number;
  /** Rebalances per hour above which the rate is a warning / critical. */
  rebalancesPerHourWarn: number;
  rebalancesPerHourCritical: number;
  /** Member-id churn is reported only after this many observed restarts. */
  memberIdChurnMinRestarts: number;
  /** Lag is "concentrated" when the worst partition's lag is at least this many times the average... */
  lagConcentrationFactor: number;
  /** ...and at least this many records. */
  lagConcentrationMinLag: number;
  /** Quarantine held longer than this is a warning / critical. */
  quarantineWarnMs: number;
  quarantineCriticalMs: number;
}

export const DEFAULT_ADVICE_THRESHOLDS: AdviceThresholds = {
  pollBudgetWarnFraction: 0.8,
  rebalancesPerHourWarn: 2,
  rebalancesPerHourCritical: 12,
  memberIdChurnMinRestarts: 2,
  lagConcentrationFactor: 3,
  lagConcentrationMinLag: 1_000,
  quarantineWarnMs: 10 * 60_000,
  quarantineCriticalMs: 60 * 60_000,
};

/** Classic-protocol assignors are eager unless cooperative (cooperative-sticky, CooperativeStickyAssignor). */
export function rebalanceProtocolOf(assignor: string | null): 'eager' | 'cooperative' | null {
  if (assignor === null || assignor === '') return null;
  return /cooperative/i.test(assignor) ? 'cooperative' : 'eager';
}

const SEVERITY_ORDER: Record<AdviceSeverity, number> = { critical: 0, warning: 1, info: 2 };

/**
 * Every rule that fires, most severe first (rule order within a severity). Thresholds are "above" (strict)
 * unless stated. Throws RangeError for negative or non-finite numbers in the input.
 */
export function adviseGroup(input: AdviceInput): Advice[] {
  validate(input);
  const overrides = Object.entries(input.thresholds ?? {}).filter(([, value]) => value !== undefined);
  const t: AdviceThresholds = { ...DEFAULT_ADVICE_THRESHOLDS, ...Object.fromEntries(overrides) };
  const rebalancesTooOften = input.rebalancesPerHour !== null && input.rebalancesPerHour > t.rebalancesPerHourWarn;
  const advice = [
    ...statusProblems(input),
    ...hotPartitions(input),
    ...ownProcessingBound(input),
    ...pollBudget(input, t),
    ...membersExceedPartitions(input),
    ...rebalanceRate(input, t),
    ...eagerProtocol(input, rebalancesTooOften),
    ...memberIdChurn(input, t, rebalancesTooOften),
    ...lagConcentrated(input, t),
    ...quarantineAge(input, t),
  ];
  return advice
    .map((a, i) => ({ a, i }))
    .sort((x, y) => SEVERITY_ORDER[x.a.severity] - SEVERITY_ORDER[y.a.severity] || x.i - y.i)
    .map(({ a }) => a);
}

/**
 * A STOP, STALL or REWIND partition (not explained by a quarantine) is the worst news a group can have, so its
 * advice comes first and is critical: what is wrong, the numbers, and what to check. One item per status.
 */
function statusProblems(input: AdviceInput): Advice[] {
  const problem = (status: PartitionStatus) =>
    input.partitions.filter((p) => p.status === status && (status === 'REWIND' || p.quarantinedForMs == null));
  const lines = (partitions: readonly AdvicePartition[]) =>
    partitions.map((p) => `${p.topic}-${p.partition}${p.statusReason ? ` (${p.statusReason})` : ''}`).join('; ');
  const evidence = (partitions: readonly AdvicePartition[]) => ({
    partitions: partitions.map((p) => `${p.topic}-${p.partition}`).join(', '),
    totalLag: partitions.reduce((sum, p) => sum + (p.lag ?? 0), 0),
    members: input.members,
    ...(input.groupState ? { groupState: input.groupState } : {}),
  });
  const group = input.groupId ? `group ${input.groupId}` : 'the group';
  const advice: Advice[] = [];

  const stopped = problem('STOP');
  if (stopped.length > 0) {
    const gone = input.members === 0 || input.groupState === 'Empty' || input.groupState === 'Dead';
    const owners = [...new Set(stopped.map((p) => p.ownerName).filter((n): n is string => !!n))];
    advice.push({
      id: 'status:STOP',
      severity: 'critical',
      title: `Consumer stopped: no commits on ${plural(stopped.length, 'partition')} while records wait`,
      detail:
        `${lines(stopped)}. ` +
        (gone
          ? `The group has no members${input.groupState ? ` (state ${input.groupState})` : ''}: no consumer of ${group} is running. ` +
            'Check that the consumer process is up (crashed, scaled to zero, a failed deploy), its logs for the error it ' +
            'exited with, and that it still uses this group id. Lag grows until a member joins.'
          : `Its owner${owners.length === 1 ? '' : 's'} (${owners.length > 0 ? owners.join(', ') : 'none assigned'}) still ` +
            'hold the partitions but commit nothing there. Check whether the consumer is hung (a record that never ' +
            'finishes, a deadlock, a full thread pool), whether it commits at all (auto-commit off, commits failing), ' +
            'and its logs; restart it if it is wedged.'),
      evidence: evidence(stopped),
    });
  }
  const stalled = problem('STALL');
  if (stalled.length > 0) {
    advice.push({
      id: 'status:STALL',
      severity: 'critical',
      title: `Consumer stalled: it commits the same offset on ${plural(stalled.length, 'partition')} while lag grows`,
      detail:
        `${lines(stalled)}. The consumer is alive (it keeps committing) but does not move past one record: usually a ` +
        'record it retries forever (a poison record) or commits that do not follow processing. Check its error logs for ' +
        'the record at the committed offset, then fix it, or skip or dead-letter that record.',
      evidence: evidence(stalled),
    });
  }
  const rewound = problem('REWIND');
  if (rewound.length > 0) {
    advice.push({
      id: 'status:REWIND',
      severity: 'critical',
      title: `Committed offset moved backwards on ${plural(rewound.length, 'partition')}`,
      detail:
        `${lines(rewound)}. Records after the older offset are processed again. Check the Audit page for an offset ` +
        'reset, and whether two consumers share this group id or a consumer re-committed old work after a rebalance.',
      evidence: evidence(rewound),
    });
  }
  return advice;
}

function hotPartitions({ partitions, perConsumerRatePerSec: rate }: AdviceInput): Advice[] {
  if (rate === null || rate <= 0) return [];
  const topicArrival = new Map<string, number>();
  for (const p of partitions) topicArrival.set(p.topic, (topicArrival.get(p.topic) ?? 0) + (p.arrivalRatePerSec ?? 0));
  return partitions.flatMap((p): Advice[] => {
    if (p.arrivalRatePerSec === null || !isHotPartition(p.arrivalRatePerSec, rate)) return [];
    const name = `${p.topic}-${p.partition}`;
    // Hot means arrival >= rate (float tolerance); it exceeds unless the two are also equal the other way.
    const exceeds = !isHotPartition(rate, p.arrivalRatePerSec);
    const share = p.arrivalRatePerSec / (topicArrival.get(p.topic) ?? p.arrivalRatePerSec);
    const topicPartitions = partitions.filter((q) => q.topic === p.topic).length;
    return [
      {
        id: `hot-partition:${name}`,
        severity: exceeds ? 'critical' : 'warning',
        title: `Hot partition ${name}: ${exceeds ? 'more than' : 'as much as'} one consumer can process`,
        detail:
          `${name} receives ${formatRate(p.arrivalRatePerSec)}; one consumer processes ${formatRate(rate)}. ` +
          (exceeds
            ? `Its lag grows by ${formatRate(p.arrivalRatePerSec - rate)} however many consumers run, `
            : 'It has no headroom: any backlog there never drains, however many consumers run, ') +
          `because a partition is consumed by one consumer only. It carries ${formatPercent(share)} of the arrivals of ` +
          `topic ${p.topic} (${plural(topicPartitions, 'partition')}): usually one key, or a few, dominate. Re-key (a finer ` +
          'key, or a salted hot key where per-key order allows) or move the hot key to its own topic; otherwise make ' +
          'per-record processing faster.',
        evidence: {
          topic: p.topic,
          partition: p.partition,
          arrivalRatePerSec: p.arrivalRatePerSec,
          perConsumerRatePerSec: rate,
          shareOfTopicArrivalPercent: Math.round(share * 100),
          ...(p.lag === null ? {} : { lag: p.lag }),
        },
      },
    ];
  });
}

/** Partitions whose lag grows while their consumer keeps up elsewhere (a hot partition already says more). */
function ownProcessingBound({ partitions, perConsumerRatePerSec: rate }: AdviceInput): Advice[] {
  return partitions.flatMap((p): Advice[] => {
    const bound = p.ownProcessingBound;
    if (!bound) return [];
    if (rate !== null && rate > 0 && p.arrivalRatePerSec !== null && isHotPartition(p.arrivalRatePerSec, rate))
      return [];
    const name = `${p.topic}-${p.partition}`;
    return [
      {
        id: `own-processing-bound:${name}`,
        severity: 'warning',
        title: `${name} is held back by its own processing, not by the consumer count`,
        detail:
          `${name} processes ${formatRate(bound.consumptionRatePerSec)} while ${formatRate(bound.arrivalRatePerSec)} arrive, so its lag ` +
          `grows, yet its consumer keeps up on its other partitions: it has capacity to spare. This partition's records ` +
          'run in order, one key (a hot key) or the whole partition at a time, or few at a time, and one consumer reads ' +
          'a partition, so more consumers would not drain it. Spread the hot key (a finer key), let more of its records ' +
          'run at once (Warden: key instead of partition ordering, a higher maxInFlightPerPartition), or make ' +
          'per-record processing faster.',
        evidence: {
          topic: p.topic,
          partition: p.partition,
          arrivalRatePerSec: bound.arrivalRatePerSec,
          consumptionRatePerSec: bound.consumptionRatePerSec,
          backlogSince: new Date(bound.sinceMs).toISOString(),
          ...(p.lag === null ? {} : { lag: p.lag }),
        },
      },
    ];
  });
}

function pollBudget({ pollBudget: budget }: AdviceInput, t: AdviceThresholds): Advice[] {
  if (budget === null) return [];
  const worstMs = budget.maxBatchRecords * budget.slowRecordMs;
  const overLimit = worstMs > budget.limitMs;
  if (!overLimit && !(worstMs > t.pollBudgetWarnFraction * budget.limitMs)) return [];
  const safeBatch =
    budget.slowRecordMs > 0
      ? Math.floor((t.pollBudgetWarnFraction * budget.limitMs) / budget.slowRecordMs)
      : budget.maxBatchRecords;
  const product =
    `${formatNumber(budget.maxBatchRecords)} records x ${formatMillis(budget.slowRecordMs)} = ${formatMillis(worstMs)}, ` +
    `${overLimit ? 'over' : 'close to'} the ${formatMillis(budget.limitMs)} ${budget.limitName}`;
  return [
    {
      id: 'poll-budget',
      severity: overLimit ? 'critical' : 'warning',
      title: overLimit
        ? 'Batch processing time exceeds the poll budget: rebalance loop'
        : 'Batch processing time is close to the poll budget',
      detail:
        `A batch of slow records takes ${product}. ` +
        (overLimit
          ? 'The member is expelled mid-batch, its partitions move, it rejoins and the batch starts over: a rebalance loop. '
          : 'A slightly slower downstream will expel the member mid-batch and start a rebalance loop. ') +
        `Cap the batch at about ${formatNumber(safeBatch)} records, or hand records off and keep polling ` +
        '(pause the partition around slow calls, resume when done).' +
        (budget.slowRecordBasis ? ` Time per record: ${budget.slowRecordBasis}.` : '') +
        (budget.assumed ? ` Assumed, not read from the client: ${budget.assumed}.` : ''),
      evidence: {
        maxBatchRecords: budget.maxBatchRecords,
        slowRecordMs: budget.slowRecordMs,
        batchWorstCaseMs: worstMs,
        limitMs: budget.limitMs,
        limitName: budget.limitName,
        suggestedMaxBatchRecords: safeBatch,
        ...(budget.slowRecordBasis ? { slowRecordMsBasis: budget.slowRecordBasis } : {}),
        ...(budget.assumed ? { assumed: budget.assumed } : {}),
      },
    },
  ];
}

function membersExceedPartitions({ members, partitions }: AdviceInput): Advice[] {
  // Compared with the total partition count: the most members any assignor can keep busy (a range assignor
  // over several topics can leave members idle even below it).
  if (members <= partitions.length) return [];
  const idle = members - partitions.length;
  return [
    {
      id: 'members-exceed-partitions',
      severity: 'info',
      title: `${plural(idle, 'member')} idle: more members than partitions`,
      detail:
        `${plural(members, 'member')} share ${plural(partitions.length, 'partition')}, so ${plural(idle, 'member')} ` +
        `get${idle === 1 ? 's' : ''} no partition yet still take${idle === 1 ? 's' : ''} part in every rebalance. A partition is ` +
        'consumed by one member at a time: members beyond the partition count add no throughput. Remove them, or ' +
        'add partitions if more parallelism is needed (new partitions briefly break per-key order).',
      evidence: { members, partitions: partitions.length, idleMembers: idle },
    },
  ];
}

function rebalanceRate({ rebalancesPerHour: perHour }: AdviceInput, t: AdviceThresholds): Advice[] {
  if (perHour === null || perHour <= t.rebalancesPerHourWarn) return [];
  const critical = perHour > t.rebalancesPerHourCritical;
  return [
    {
      id: 'rebalance-rate',
      severity: critical ? 'critical' : 'warning',
      title: `${formatNumber(perHour)} rebalances per hour`,
      detail:
        `The group rebalanced ${formatNumber(perHour)} times per hour (threshold ${formatNumber(critical ? t.rebalancesPerHourCritical : t.rebalancesPerHourWarn)}). ` +
        'Each rebalance pauses consumption. Find the trigger in the rebalance timeline: members expelled for ' +
        'exceeding the poll or session budget (shrink batches, hand slow work off), restarts and deploys (static ' +
        'membership, one member at a time), or autoscaling churn.',
      evidence: {
        rebalancesPerHour: perHour,
        thresholdPerHour: critical ? t.rebalancesPerHourCritical : t.rebalancesPerHourWarn,
      },
    },
  ];
}

function eagerProtocol({ rebalanceProtocol, assignor, client }: AdviceInput, rebalancesTooOften: boolean): Advice[] {
  if (rebalanceProtocol !== 'eager') return [];
  const what =
    `The group uses the eager rebalance protocol${assignor ? ` (assignor ${assignor})` : ''}: every rebalance revokes ` +
    'all partitions from all members, so the whole group stops until it has re-synced. ';
  const todo =
    client !== null && !client.supportsCooperative
      ? `${client.name} supports only the eager protocol${client.supportsKip848 ? '' : ' (no cooperative-sticky, no KIP-848)'}. ` +
        'Keep rebalances rare and short instead: return from the batch handler at once and process elsewhere so ' +
        'heartbeats keep flowing, keep the session timeout above the longest pause, commit and leave cleanly on ' +
        'shutdown, and roll deploys one member at a time. If rebalances still hurt, move to a client with ' +
        'cooperative-sticky or the KIP-848 protocol (e.g. a librdkafka-based one such as @confluentinc/kafka-javascript).'
      : 'Switch to cooperative-sticky (two rolling deploys: first list it next to the current assignor, then drop the ' +
        'old one)' +
        (client === null || client.supportsKip848
          ? ', or to the KIP-848 consumer protocol (group.protocol=consumer, Kafka 4.0+ brokers).'
          : '.');
  return [
    {
      id: 'eager-protocol',
      severity: rebalancesTooOften ? 'warning' : 'info',
      title: 'Eager rebalance protocol: every rebalance stops the whole group',
      detail: what + todo,
      evidence: {
        protocol: 'eager',
        ...(assignor ? { assignor } : {}),
        ...(client ? { client: client.name } : {}),
      },
    },
  ];
}

function memberIdChurn(
  { memberRestarts, client }: AdviceInput,
  t: AdviceThresholds,
  rebalancesTooOften: boolean,
): Advice[] {
  if (memberRestarts === null) return [];
  const { restarts, restartsWithNewMemberId, staticMemberRestarts = 0, windowMs, rejoinWithinMs } = memberRestarts;
  if (restarts < t.memberIdChurnMinRestarts || restartsWithNewMemberId < restarts || staticMemberRestarts > 0)
    return [];
  const todo =
    client !== null && !client.supportsStaticMembership
      ? `${client.name} has no static membership (group.instance.id). Restart fewer members at a time and shut down ` +
        'cleanly (commit, then leave the group) so the leave is immediate rather than a session timeout, or move ' +
        'to a client that supports static membership.'
      : 'Use static membership: set group.instance.id to a stable per-instance value (e.g. the pod name of a ' +
        'StatefulSet) and a session timeout longer than a restart, so a restarted member gets its partitions back ' +
        'without a rebalance. The cost: a member that really died is noticed only after the session timeout.';
  return [
    {
      id: 'member-id-churn',
      severity: rebalancesTooOften ? 'warning' : 'info',
      title: 'Member ids change at every restart',
      detail:
        `All ${formatNumber(restarts)} observed member restarts${windowMs === undefined ? '' : ` in the last ${formatDuration(windowMs / 1000)}`} ` +
        'came back as a new dynamic member (a new member id, no group.instance.id in it), so each restart costs a ' +
        `rebalance to leave and another to join. ${todo}`,
      evidence: {
        restarts,
        restartsWithNewMemberId,
        ...(windowMs === undefined ? {} : { windowMs }),
        ...(rejoinWithinMs === undefined ? {} : { rejoinWithinMs }),
        ...(client ? { client: client.name } : {}),
      },
    },
  ];
}

function lagConcentrated({ partitions }: AdviceInput, t: AdviceThresholds): Advice[] {
  const known = partitions.filter((p): p is AdvicePartition & { lag: number } => p.lag !== null);
  if (known.length < 2) return [];
  const total = known.reduce((sum, p) => sum + p.lag, 0);
  const worst = known.reduce((a, b) => (b.lag > a.lag ? b : a));
  const average = total / known.length;
  if (total === 0 || worst.lag < t.lagConcentrationMinLag || worst.lag < t.lagConcentrationFactor * average) return [];
  const name = `${worst.topic}-${worst.partition}`;
  const timeLag =
    worst.timeLagMs == null ? '' : `; its oldest waiting record is ${formatDuration(worst.timeLagMs / 1000)} old`;
  return [
    {
      id: `lag-concentrated:${name}`,
      severity: 'warning',
      title: `Lag concentrated in ${name}`,
      detail:
        `${name} holds ${formatNumber(worst.lag)} of the group's ${formatNumber(total)} records of lag ` +
        `(${formatPercent(worst.lag / total)}), ${formatNumber(worst.lag / average)} times the average over ` +
        `${plural(known.length, 'partition')}${timeLag}. A sum or average looks fine while this partition waits: ` +
        'watch per-partition maximum and time lag. Find why it is slow: a hot key (its arrival rate), a slow or ' +
        'poison record (its oldest unfinished offset, a quarantine), or a stuck owner.',
      evidence: {
        topic: worst.topic,
        partition: worst.partition,
        partitionLag: worst.lag,
        totalLag: total,
        averageLag: average,
        shareOfTotalLagPercent: Math.round((worst.lag / total) * 100),
        partitionsWithKnownLag: known.length,
        ...(worst.timeLagMs == null ? {} : { timeLagMs: worst.timeLagMs }),
      },
    },
  ];
}

function quarantineAge({ partitions }: AdviceInput, t: AdviceThresholds): Advice[] {
  return partitions.flatMap((p): Advice[] => {
    const heldMs = p.quarantinedForMs;
    if (heldMs == null || heldMs <= t.quarantineWarnMs) return [];
    const critical = heldMs > t.quarantineCriticalMs;
    const name = `${p.topic}-${p.partition}`;
    return [
      {
        id: `quarantine-age:${name}`,
        severity: critical ? 'critical' : 'warning',
        title: `${name} quarantined for ${formatDuration(heldMs / 1000)}`,
        detail:
          `${name} has been held at ${p.quarantinedOffset == null ? 'a record' : `offset ${p.quarantinedOffset}`} for ` +
          `${formatDuration(heldMs / 1000)}${p.quarantineReason ? ` (${p.quarantineReason})` : ''}, longer than ` +
          `${formatDuration((critical ? t.quarantineCriticalMs : t.quarantineWarnMs) / 1000)}. Every healthy record ` +
          'behind it waits too. Inspect the held record, then retry it once the cause is fixed, or skip or ' +
          'dead-letter it.',
        evidence: {
          topic: p.topic,
          partition: p.partition,
          quarantinedForMs: heldMs,
          thresholdMs: critical ? t.quarantineCriticalMs : t.quarantineWarnMs,
          ...(p.quarantinedOffset == null ? {} : { offset: p.quarantinedOffset }),
          ...(p.quarantineReason ? { reason: p.quarantineReason } : {}),
          ...(p.lag === null ? {} : { lag: p.lag }),
        },
      },
    ];
  });
}

function validate(input: AdviceInput): void {
  const check = (value: number | null | undefined, what: string) => {
    if (value != null && !(Number.isFinite(value) && value >= 0))
      throw new RangeError(`${what} must be a finite number >= 0, got ${value}`);
  };
  check(input.members, 'members');
  check(input.perConsumerRatePerSec, 'perConsumerRatePerSec');
  check(input.rebalancesPerHour, 'rebalancesPerHour');
  if (input.pollBudget) {
    check(input.pollBudget.maxBatchRecords, 'pollBudget.maxBatchRecords');
    check(input.pollBudget.slowRecordMs, 'pollBudget.slowRecordMs');
    check(input.pollBudget.limitMs, 'pollBudget.limitMs');
  }
  if (input.memberRestarts) {
    check(input.memberRestarts.restarts, 'memberRestarts.restarts');
    check(input.memberRestarts.restartsWithNewMemberId, 'memberRestarts.restartsWithNewMemberId');
    check(input.memberRestarts.staticMemberRestarts, 'memberRestarts.staticMemberRestarts');
  }
  for (const p of input.partitions) {
    const name = `${p.topic}-${p.partition}`;
    check(p.lag, `${name} lag`);
    check(p.arrivalRatePerSec, `${name} arrivalRatePerSec`);
    check(p.timeLagMs, `${name} timeLagMs`);
    check(p.quarantinedForMs, `${name} quarantinedForMs`);
  }
  for (const [key, value] of Object.entries(input.thresholds ?? {})) check(value, `thresholds.${key}`);
}
