// rebalance_event rows from the two sources. Pure.
// members_before / members_after hold Array<{ memberId, clientId, clientHost, assignment: { topic: number[] } }>
// for both sources, so the dashboard reads one shape:
// - 'describe-groups' (inferred, every group): the whole group's members; start and end are the samples
//   around the rebalance, so the duration is an upper bound (duration_is_bound = true).
// - 'own-consumer' (measured, Warden's own consumer): only the measuring member, with its assignment before
//   and after, named as the group names it where the recorder could ask (own-rebalance-recorder.ts); start
//   and end are its own stop (REBALANCING or crash/restart to GROUP_JOIN), measured exactly.
//   Each Warden instance writes its own row, so a rebalance of a group with N Warden members has N measured
//   rows (one per member's stop) next to at most one inferred row; the history and the rebalance rate merge
//   them into one rebalance (lib/rebalances/merge-rebalances.ts).

import type { Prisma } from '../../lib/generated/prisma/client';
import { countMoved } from '../../lib/rebalances/partitions-moved';
import type { TopicPartition } from '@warden/consumer';
import type { InferredRebalance, RebalanceTrigger } from './rebalance-inference';
import type { GroupMember } from '../../lib/kafka/cluster-observation';
import type { RebalanceTiming } from '../shared/worker-types';

export interface RebalanceRow {
  groupId: string;
  source: 'own-consumer' | 'describe-groups';
  startedAt: Date;
  endedAt: Date;
  durationMs: number;
  durationIsBound: boolean;
  membersBefore: GroupMember[];
  membersAfter: GroupMember[];
  partitionsMoved: number;
  trigger: RebalanceTrigger;
}

const INT4_MAX = 2_147_483_647;

export function inferredRebalanceRow(rebalance: InferredRebalance): RebalanceRow {
  return {
    groupId: rebalance.groupId,
    source: 'describe-groups',
    startedAt: new Date(rebalance.startedAtMs),
    endedAt: new Date(rebalance.endedAtMs),
    durationMs: clampDuration(rebalance.durationMs),
    durationIsBound: true,
    membersBefore: rebalance.membersBefore.map(normaliseMember),
    membersAfter: rebalance.membersAfter.map(normaliseMember),
    partitionsMoved: rebalance.partitionsMoved,
    trigger: rebalance.trigger,
  };
}

/**
 * The measuring member's own stop. Its trigger is 'join' when it joined from scratch (start-up, crash,
 * rebuild) and 'unknown' when the group rebalanced under it: a member cannot see why (the inferred row
 * for the same group names the likely trigger).
 */
export function measuredRebalanceRow(
  timing: RebalanceTiming,
  member: { clientId: string; clientHost: string },
): RebalanceRow {
  const before = assignmentOf(timing.assignmentBefore);
  const after = assignmentOf(timing.assignmentAfter);
  const self = (assignment: Record<string, number[]>): GroupMember => ({
    memberId: timing.memberId,
    clientId: member.clientId,
    clientHost: member.clientHost,
    assignment,
  });
  const startedAtMs = Math.min(timing.startedAtMs, timing.endedAtMs);
  return {
    groupId: timing.groupId,
    source: 'own-consumer',
    startedAt: new Date(startedAtMs),
    endedAt: new Date(timing.endedAtMs),
    durationMs: clampDuration(timing.endedAtMs - startedAtMs),
    durationIsBound: false,
    membersBefore: timing.assignmentBefore.length > 0 ? [self(before)] : [],
    membersAfter: [self(after)],
    partitionsMoved: countMoved(
      [{ memberId: timing.memberId, assignment: before }],
      [{ memberId: timing.memberId, assignment: after }],
    ),
    trigger: timing.cause === 'join' ? 'join' : 'unknown',
  };
}

/** The row as Prisma's createMany input (the member lists are JSON columns). */
/** The rebalance_event row of `row`, observed on `cluster` (own-consumer rows: the worker's, `default`). */
export function rebalanceEventData(row: RebalanceRow, cluster: string): Prisma.RebalanceEventCreateManyInput {
  return {
    ...row,
    cluster,
    membersBefore: row.membersBefore as unknown as Prisma.InputJsonValue,
    membersAfter: row.membersAfter as unknown as Prisma.InputJsonValue,
  };
}

function assignmentOf(partitions: readonly TopicPartition[]): Record<string, number[]> {
  const result: Record<string, number[]> = {};
  for (const { topic, partition } of partitions) (result[topic] ??= []).push(partition);
  for (const list of Object.values(result)) list.sort((a, b) => a - b);
  return result;
}

function normaliseMember(member: GroupMember): GroupMember {
  const assignment: Record<string, number[]> = {};
  for (const topic of Object.keys(member.assignment).sort())
    assignment[topic] = [...(member.assignment[topic] ?? [])].sort((x, y) => x - y);
  return { memberId: member.memberId, clientId: member.clientId, clientHost: member.clientHost, assignment };
}

function clampDuration(ms: number): number {
  return Math.min(INT4_MAX, Math.max(0, Math.round(ms)));
}
