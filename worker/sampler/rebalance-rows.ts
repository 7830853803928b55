// rebalance_event rows the sampler infers. Pure.
// members_before / members_after hold Array<{ memberId, clientId, clientHost, assignment: { topic: number[] } }>
// for both sources, so the dashboard reads one shape:
// - 'describe-groups' (inferred here, every group): the whole group's members; start and end are the samples
//   around the rebalance, so the duration is an upper bound (duration_is_bound = true).
// - 'own-consumer' (measured by a consumer that reports over the control plane, worker/control/state-rows.ts):
//   only the measuring member, with its assignment before and after, named as the group names it where the
//   ingester could ask; start and end are its own stop, measured exactly. Each instance's stop is its own row
//   (reported_by), so a rebalance of a group with N reporting members has N measured rows next to at most one
//   inferred row; the history and the rebalance rate merge them into one rebalance
//   (lib/rebalances/merge-rebalances.ts).

import type { Prisma } from '../../lib/generated/prisma/client';
import type { InferredRebalance, RebalanceTrigger } from './rebalance-inference';
import type { GroupMember } from '../../lib/kafka/cluster-observation';

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

/** The rebalance_event row of `row` as Prisma's createMany input (the member lists are JSON columns), observed on `cluster`. */
export function rebalanceEventData(row: RebalanceRow, cluster: string): Prisma.RebalanceEventCreateManyInput {
  return {
    ...row,
    cluster,
    membersBefore: row.membersBefore as unknown as Prisma.InputJsonValue,
    membersAfter: row.membersAfter as unknown as Prisma.InputJsonValue,
  };
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
