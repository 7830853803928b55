// Rows of Warden's tables from one consumer instance's reported state (the control plane's `<prefix>.state`
// topic, ZInstanceState): its consumer_instance row, its partitions' commit-prefix rows, what a hold stores on
// partition_quarantine, and its measured rebalance stops as rebalance_event rows. Pure.
//
// The state comes from another process, so nothing here trusts it beyond its schema: `storageProblem` names
// what the schema allows but Postgres cannot hold (an offset past int64, a time past year 9999) so the
// message is refused instead of failing its transaction for ever; counts that would overflow an int4 column
// are clamped; a NUL character, which Postgres text cannot hold, is written escaped as `\u0000`; previews are
// escaped and capped again (lib/kafka/record-preview.ts), whatever the instance did.

import type { TInstanceState, THold, TPartitionState, TRebalanceStop } from '@warden/consumer';
import type { Prisma } from '../../lib/generated/prisma/client';
import type { GroupMember } from '../../lib/kafka/cluster-observation';
import { previewOf } from '../../lib/kafka/record-preview';
import { countMoved } from '../../lib/rebalances/partitions-moved';

const INT4_MAX = 2_147_483_647;
const INT64_MAX = 9_223_372_036_854_775_807n;
/** 9999-12-31T23:59:59.999Z: the last time every reader of the tables can show. */
const LAST_STORABLE_MS = 253_402_300_799_999;

/** Why Postgres could not hold this state as it is; null when it can. */
export function storageProblem(state: TInstanceState): string | null {
  const offsets: Array<[string, string | null | undefined]> = [
    ...state.partitions.flatMap((p): Array<[string, string | null]> => [
      [`partitions ${p.topic}-${p.partition} watermark`, p.watermark],
      [`partitions ${p.topic}-${p.partition} highestCompleted`, p.highestCompleted],
      [`partitions ${p.topic}-${p.partition} oldestUnfinishedOffset`, p.oldestUnfinishedOffset],
    ]),
    ...state.holds.map((h): [string, string] => [`holds ${h.topic}-${h.partition} offset`, h.offset]),
    ...state.outcomes.flatMap((o): Array<[string, string | undefined]> => [
      [`outcomes ${o.commandId} liftedOffset`, o.liftedOffset],
      [`outcomes ${o.commandId} seekOffset`, o.seekOffset],
    ]),
  ];
  for (const [where, offset] of offsets) {
    if (offset !== null && offset !== undefined && BigInt(offset) > INT64_MAX)
      return `${where}: ${offset} is past the largest int64 offset`;
  }
  const times: Array<[string, number | null]> = [
    ['startedAtMs', state.startedAtMs],
    ['publishedAtMs', state.publishedAtMs],
    ...state.holds.flatMap((h): Array<[string, number | null]> => [
      [`holds ${h.topic}-${h.partition} sinceMs`, h.sinceMs],
      [`holds ${h.topic}-${h.partition} timestampMs`, h.timestampMs],
    ]),
    ...state.rebalances.flatMap((r): Array<[string, number]> => [
      ['rebalances startedAtMs', r.startedAtMs],
      ['rebalances endedAtMs', r.endedAtMs],
    ]),
    ...state.outcomes.map((o): [string, number] => [`outcomes ${o.commandId} appliedAtMs`, o.appliedAtMs]),
  ];
  for (const [where, ms] of times) {
    if (ms !== null && ms > LAST_STORABLE_MS) return `${where}: ${ms} is past the year 9999`;
  }
  return null;
}

/** `value` with every NUL character in its strings escaped as `\u0000` (Postgres text cannot hold one). */
export function withoutNul<T>(value: T): T {
  if (typeof value === 'string') return (value.includes('\u0000') ? value.replaceAll('\u0000', '\\u0000') : value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => withoutNul(item)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [withoutNul(key), withoutNul(item as unknown)]),
    ) as T;
  }
  return value;
}

/** The consumer_instance row of `state` (cluster and key included). */
export function instanceRow(state: TInstanceState, cluster: string) {
  const newest = state.refused.recent.reduce<TInstanceState['refused']['recent'][number] | null>(
    (latest, r) => (latest === null || r.atMs >= latest.atMs ? r : latest),
    null,
  );
  return {
    cluster,
    groupId: state.groupId,
    instanceId: state.instanceId,
    clientId: state.clientId,
    host: state.host,
    pid: clampInt(state.pid),
    packageVersion: state.packageVersion,
    startedAt: new Date(state.startedAtMs),
    reportedAt: new Date(state.publishedAtMs),
    stateIntervalMs: clampInt(state.stateIntervalMs),
    status: state.status,
    ready: state.ready,
    readinessDetail: state.readinessDetail,
    assignment: state.assignment.map(({ topic, partition }) => ({ topic, partition })),
    refusedCommands: clampInt(state.refused.count),
    lastRefusal:
      newest === null
        ? null
        : newest.commandId === null
          ? newest.reason
          : `command ${newest.commandId}: ${newest.reason}`,
  };
}

export interface ConsumerStateRow {
  cluster: string;
  groupId: string;
  topic: string;
  partition: number;
  instanceId: string;
  sampledAt: Date;
  watermark: bigint | null;
  highestCompleted: bigint | null;
  inFlight: number;
  completedUncommitted: number;
  buffered: number;
  bufferedBytes: number;
  oldestUnfinishedOffset: bigint | null;
  oldestUnfinishedAgeMs: number | null;
  paused: boolean;
}

/**
 * One consumer_partition_state row per reported partition: where its commit prefix stands and what holds it
 * back, as the instance measured it when it published (`sampledAt`). `paused` is true when fetching is paused
 * for any reason (backpressure or a quarantine; the quarantine itself is in partition_quarantine).
 */
export function partitionStateRows(state: TInstanceState, cluster: string): ConsumerStateRow[] {
  const sampledAt = new Date(state.publishedAtMs);
  const held = new Set(state.holds.map((h) => partitionKey(h)));
  return state.partitions.map((p: TPartitionState) => ({
    cluster,
    groupId: state.groupId,
    topic: p.topic,
    partition: p.partition,
    instanceId: state.instanceId,
    sampledAt,
    watermark: offsetOrNull(p.watermark),
    highestCompleted: offsetOrNull(p.highestCompleted),
    inFlight: clampInt(p.inFlight),
    completedUncommitted: clampInt(p.completedUncommitted),
    buffered: clampInt(p.buffered),
    bufferedBytes: clampInt(p.bufferedBytes),
    oldestUnfinishedOffset: offsetOrNull(p.oldestUnfinishedOffset),
    oldestUnfinishedAgeMs: p.oldestUnfinishedAgeMs === null ? null : clampInt(p.oldestUnfinishedAgeMs),
    paused: p.paused || held.has(partitionKey(p)),
  }));
}

/** What a hold writes on its partition_quarantine row besides the counts decideHold keeps. */
export function holdDetails(hold: THold, heldBy: string) {
  return {
    reason: hold.reason,
    errorClass: hold.errorClass,
    heldSince: new Date(hold.sinceMs),
    recordKey: hold.key === null ? null : repreview(hold.key),
    recordPreview: hold.value === null ? null : repreview(hold.value),
    recordHeaders: Object.fromEntries(
      Object.entries(hold.headers).map(([name, value]) => [name, value === null ? null : repreview(value)]),
    ),
    recordTimestamp: hold.timestampMs === null ? null : new Date(hold.timestampMs),
    heldBy,
  };
}

/** How the group names a member: its client id and host as the broker sees the connection. */
export interface MemberIdentity {
  clientId: string;
  clientHost: string;
}

/** The start a measured stop is stored under (never after its end), part of the row's unique key. */
export function stopStartedAt(stop: TRebalanceStop): Date {
  return new Date(Math.min(stop.startedAtMs, stop.endedAtMs));
}

/**
 * The rebalance_event row (source 'own-consumer') of one measured stop of the reporting member: only that
 * member, with its assignment before and after, named `identity` (as the group names it when the broker could
 * be asked, else as the instance names itself). Its trigger is 'join' when the member joined from scratch and
 * 'unknown' when the group rebalanced under it: a member cannot see why (the sampler's inferred row for the
 * same rebalance names the likely trigger). One row per instance and start (`reported_by`).
 */
export function measuredRebalanceRow(
  stop: TRebalanceStop,
  reporter: { cluster: string; groupId: string; instanceId: string },
  identity: MemberIdentity,
): Prisma.RebalanceEventCreateManyInput {
  const before = assignmentOf(stop.assignmentBefore);
  const after = assignmentOf(stop.assignmentAfter);
  const self = (assignment: Record<string, number[]>): GroupMember => ({
    memberId: stop.memberId,
    clientId: identity.clientId,
    clientHost: identity.clientHost,
    assignment,
  });
  const startedAt = stopStartedAt(stop);
  const membersBefore = stop.assignmentBefore.length > 0 ? [self(before)] : [];
  const membersAfter = [self(after)];
  return {
    cluster: reporter.cluster,
    groupId: reporter.groupId,
    source: 'own-consumer',
    startedAt,
    endedAt: new Date(stop.endedAtMs),
    durationMs: clampInt(stop.endedAtMs - startedAt.getTime()),
    durationIsBound: false,
    membersBefore: membersBefore as unknown as Prisma.InputJsonValue,
    membersAfter: membersAfter as unknown as Prisma.InputJsonValue,
    partitionsMoved: countMoved(
      [{ memberId: stop.memberId, assignment: before }],
      [{ memberId: stop.memberId, assignment: after }],
    ),
    trigger: stop.cause === 'join' ? 'join' : 'unknown',
    reportedBy: reporter.instanceId,
  };
}

/** `topic\0partition`: a map key for a partition. */
export function partitionKey(tp: { topic: string; partition: number }): string {
  return `${tp.topic}\u0000${tp.partition}`;
}

function assignmentOf(partitions: ReadonlyArray<{ topic: string; partition: number }>): Record<string, number[]> {
  const result: Record<string, number[]> = {};
  for (const { topic, partition } of partitions) (result[topic] ??= []).push(partition);
  for (const list of Object.values(result)) list.sort((a, b) => a - b);
  return result;
}

function repreview(text: string): string {
  return previewOf(Buffer.from(text, 'utf8'));
}

function offsetOrNull(offset: string | null): bigint | null {
  return offset === null ? null : BigInt(offset);
}

function clampInt(value: number): number {
  if (!Number.isFinite(value)) return INT4_MAX;
  return Math.min(INT4_MAX, Math.max(0, Math.round(value)));
}
