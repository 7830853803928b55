import type { TCommandOutcome, TInstanceState } from '@warden/consumer';
import type { Database } from '../../lib/db';
import type { Prisma } from '../../lib/generated/prisma/client';
import { liftHold, lockPartitions, saveHold, type QuarantineTarget } from './quarantine-store';
import {
  instanceRow,
  measuredRebalanceRow,
  partitionKey,
  partitionStateRows,
  stopStartedAt,
  type MemberIdentity,
} from './state-rows';

// One consumer instance's reported state (ZInstanceState, from the control plane's state topic of `cluster`)
// into Postgres, in one transaction:
// 1. consumer_instance is upserted, unless the stored report is newer (an instance's messages arrive in order,
//    but a restarted ingester may read an old one again): then nothing else happens either.
// 2. Its command outcomes update their operator_action rows that are still 'pending' or 'expired' (an outcome
//    that arrives after the expiry still wins): status, outcome, executed_by, completed_at, seek offset; a 'done'
//    outcome lifts the quarantine it released (quarantine-store.ts liftHold) in the same transaction.
// 3. Its holds are saved by decideHold's rule with held_by (a resume whose record is held again turns
//    'failed_again'). Outcomes come first: within one message an outcome happened before a newer hold.
// 4. A refused command it owns the partition of, still pending, is 'rejected' naming the instance and reason.
// 5. Its partitions' commit-prefix rows replace what it reported before (a 'stopped' instance's are removed).
// 6. Reconciliation: a partition_quarantine row of a partition it reports without a hold, whose acknowledged
//    commit passed the row's offset, is removed (the record was passed: skipped, sought over, or retried after a
//    resume). A row at or above the commit is never removed: an owner that has not reached it must not erase it.
// 7. Its measured rebalance stops become rebalance_event rows (source 'own-consumer', reported_by the instance;
//    the unique index skips the ones already stored). Each new stop's member is named as the group names it
//    (describeGroups), asked before the transaction with a bounded wait; the instance's own name otherwise.
// Every partition_quarantine change runs under the partition's advisory lock. Ingesting the same message twice
// changes nothing more. Throws what Postgres throws (the caller retries the message).

/** How long a new stop's member may take to be named by the group before its own name is used. */
export const IDENTIFY_TIMEOUT_MS = 2_000;

export interface IngestOptions {
  db: Database;
  /** The cluster whose state topic the message came from. */
  cluster: string;
  /** The member as describeGroups shows it; null when the group does not list it (any more). */
  identify?: (groupId: string, memberId: string) => Promise<MemberIdentity | null>;
}

/** An operator_action row whose status this message set. */
export interface RecordedOutcome {
  actionId: bigint;
  commandId: string;
  action: string;
  groupId: string;
  topic: string;
  partition: number;
  status: string;
  outcome: string;
}

export interface IngestResult {
  /** False when the stored report of the instance is newer: nothing was written. */
  applied: boolean;
  recorded: RecordedOutcome[];
  rebalancesWritten: number;
}

interface ActionRow {
  id: bigint;
  command_id: string;
  group_id: string;
  topic: string;
  partition: number;
  action: string;
  status: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function ingestInstanceState(options: IngestOptions, state: TInstanceState): Promise<IngestResult> {
  const { db, cluster } = options;
  const reporter = { cluster, groupId: state.groupId, instanceId: state.instanceId };
  const stored = await db.consumerInstance.findUnique({
    where: { cluster_groupId_instanceId: reporter },
    select: { reportedAt: true },
  });
  if (stored && stored.reportedAt.getTime() > state.publishedAtMs)
    return { applied: false, recorded: [], rebalancesWritten: 0 };
  const rebalances = await newRebalanceRows(options, state);

  return db.$transaction(
    async (tx) => {
      if (!(await upsertInstance(tx, state, cluster))) return { applied: false, recorded: [], rebalancesWritten: 0 };
      const group = { cluster, groupId: state.groupId };
      const target = (tp: { topic: string; partition: number }): QuarantineTarget => ({
        ...group,
        topic: tp.topic,
        partition: tp.partition,
      });

      const outcomes = await matchedOutcomes(tx, cluster, state);
      const refusals = await ownedRefusals(tx, cluster, state);
      // Read before the locks, only to choose what to lock: a hold equal to its stored row carries nothing new,
      // and a row the commit has not passed has nothing to reconcile. Everything written is read under the lock.
      const storedHolds = await tx.partitionQuarantine.findMany({
        where: group,
        select: { topic: true, partition: true, offset: true, heldSince: true, heldBy: true },
      });
      const storedByPartition = new Map(storedHolds.map((row) => [partitionKey(row), row]));
      const changedHolds = state.holds.filter((hold) => {
        const row = storedByPartition.get(partitionKey(hold));
        return (
          row === undefined ||
          row.offset !== BigInt(hold.offset) ||
          row.heldSince.getTime() !== hold.sinceMs ||
          row.heldBy !== state.instanceId
        );
      });
      const heldPartitions = new Set(state.holds.map((hold) => partitionKey(hold)));
      const passed = state.partitions.filter((p) => {
        const row = storedByPartition.get(partitionKey(p));
        return (
          !heldPartitions.has(partitionKey(p)) &&
          p.watermark !== null &&
          row !== undefined &&
          row.offset < BigInt(p.watermark)
        );
      });
      await lockPartitions(tx, [
        ...outcomes.filter(({ outcome }) => outcome.liftedOffset !== undefined).map(({ row }) => target(row)),
        ...changedHolds.map(target),
        ...passed.map(target),
      ]);

      const recorded: RecordedOutcome[] = [];
      for (const { row, outcome } of outcomes) {
        const completedAt = new Date(outcome.appliedAtMs);
        if (outcome.status === 'done' && outcome.liftedOffset !== undefined) {
          await liftHold(tx, target(row), {
            action: row.action,
            offset: BigInt(outcome.liftedOffset),
            actionId: row.id,
            at: completedAt,
          });
        }
        await tx.operatorAction.update({
          where: { id: row.id },
          data: {
            status: outcome.status,
            outcome: outcome.outcome,
            executedBy: state.instanceId,
            completedAt,
            ...(outcome.seekOffset !== undefined ? { seekOffset: BigInt(outcome.seekOffset) } : {}),
          },
        });
        recorded.push(recordOf(row, outcome.status, outcome.outcome));
      }

      for (const hold of changedHolds) {
        const { failedResumeId } = await saveHold(tx, target(hold), hold, state.instanceId);
        if (failedResumeId === null) continue;
        const failed = await tx.operatorAction.findUniqueOrThrow({ where: { id: failedResumeId } });
        recorded.push({
          actionId: failed.id,
          commandId: failed.commandId,
          action: failed.action,
          groupId: failed.groupId,
          topic: failed.topic,
          partition: failed.partition,
          status: failed.status,
          outcome: failed.outcome ?? '',
        });
      }

      for (const { row, reason } of refusals) {
        const outcome = `instance ${state.instanceId} refused the command: ${reason}; nothing was changed`;
        const rejected = await tx.operatorAction.updateMany({
          where: { id: row.id, status: 'pending' },
          data: {
            status: 'rejected',
            outcome,
            executedBy: state.instanceId,
            completedAt: new Date(state.publishedAtMs),
          },
        });
        if (rejected.count > 0) recorded.push(recordOf(row, 'rejected', outcome));
      }

      await writePartitionStates(tx, state, cluster);

      const publishedAt = new Date(state.publishedAtMs);
      for (const p of passed) {
        await tx.partitionQuarantine.deleteMany({
          where: { ...target(p), offset: { lt: BigInt(p.watermark!) }, heldSince: { lte: publishedAt } },
        });
      }

      const written =
        rebalances.length === 0
          ? 0
          : (await tx.rebalanceEvent.createMany({ data: rebalances, skipDuplicates: true })).count;
      return { applied: true, recorded, rebalancesWritten: written };
    },
    { maxWait: 10_000, timeout: 30_000 },
  );
}

/**
 * Upserts the instance's row unless the stored one is from a newer report; false when it is (the row is locked
 * either way until the transaction ends, so two ingesters of one instance's messages go one after the other).
 */
async function upsertInstance(tx: Prisma.TransactionClient, state: TInstanceState, cluster: string): Promise<boolean> {
  const row = instanceRow(state, cluster);
  const written = await tx.$queryRaw<unknown[]>`
    INSERT INTO consumer_instance (cluster, group_id, instance_id, client_id, host, pid, package_version, started_at,
      reported_at, state_interval_ms, status, ready, readiness_detail, assignment, refused_commands, last_refusal)
    VALUES (${row.cluster}, ${row.groupId}, ${row.instanceId}, ${row.clientId}, ${row.host}, ${row.pid},
      ${row.packageVersion}, ${row.startedAt}, ${row.reportedAt}, ${row.stateIntervalMs}, ${row.status}, ${row.ready},
      ${row.readinessDetail}, ${JSON.stringify(row.assignment)}::jsonb, ${row.refusedCommands}, ${row.lastRefusal})
    ON CONFLICT (cluster, group_id, instance_id) DO UPDATE SET
      client_id = EXCLUDED.client_id, host = EXCLUDED.host, pid = EXCLUDED.pid,
      package_version = EXCLUDED.package_version, started_at = EXCLUDED.started_at,
      reported_at = EXCLUDED.reported_at, state_interval_ms = EXCLUDED.state_interval_ms, status = EXCLUDED.status,
      ready = EXCLUDED.ready, readiness_detail = EXCLUDED.readiness_detail, assignment = EXCLUDED.assignment,
      refused_commands = EXCLUDED.refused_commands, last_refusal = EXCLUDED.last_refusal
    WHERE consumer_instance.reported_at <= EXCLUDED.reported_at
    RETURNING 1 AS written`;
  return written.length > 0;
}

/**
 * The outcomes whose operator_action row (by command id, in this cluster) is still 'pending' or 'expired' and
 * names the same group, partition and action (an instance reports only its own group's commands; anything
 * else is ignored), oldest applied first. The rows are locked until the transaction ends.
 */
async function matchedOutcomes(
  tx: Prisma.TransactionClient,
  cluster: string,
  state: TInstanceState,
): Promise<Array<{ row: ActionRow; outcome: TCommandOutcome }>> {
  const outcomes = state.outcomes.filter((o) => UUID.test(o.commandId));
  if (outcomes.length === 0) return [];
  const rows = await tx.$queryRaw<ActionRow[]>`
    SELECT id, command_id::text AS command_id, group_id, topic, partition, action, status
    FROM operator_action
    WHERE cluster = ${cluster} AND command_id = ANY(${outcomes.map((o) => o.commandId)}::uuid[])
      AND status IN ('pending', 'expired')
    ORDER BY id
    FOR UPDATE`;
  const byCommand = new Map(rows.map((row) => [row.command_id.toLowerCase(), row]));
  const matched: Array<{ row: ActionRow; outcome: TCommandOutcome }> = [];
  const seen = new Set<string>();
  for (const outcome of [...outcomes].sort((a, b) => a.appliedAtMs - b.appliedAtMs)) {
    const row = byCommand.get(outcome.commandId.toLowerCase());
    if (!row || seen.has(row.command_id)) continue;
    if (
      row.group_id !== state.groupId ||
      row.topic !== outcome.topic ||
      row.partition !== outcome.partition ||
      row.action !== outcome.action
    )
      continue;
    seen.add(row.command_id);
    matched.push({ row, outcome });
  }
  return matched;
}

/**
 * The refused commands that name a pending operator_action row of this instance's group whose partition the
 * instance owns (by its reported assignment). A refusal by an instance that does not own the partition decides
 * nothing: the owner may still apply the command (the expiry names the refusal if nobody does).
 */
async function ownedRefusals(
  tx: Prisma.TransactionClient,
  cluster: string,
  state: TInstanceState,
): Promise<Array<{ row: ActionRow; reason: string }>> {
  const refused = state.refused.recent.filter((r) => r.commandId !== null && UUID.test(r.commandId));
  if (refused.length === 0) return [];
  const rows = await tx.$queryRaw<ActionRow[]>`
    SELECT id, command_id::text AS command_id, group_id, topic, partition, action, status
    FROM operator_action
    WHERE cluster = ${cluster} AND group_id = ${state.groupId} AND status = 'pending'
      AND command_id = ANY(${refused.map((r) => r.commandId!)}::uuid[])
    ORDER BY id
    FOR UPDATE`;
  const owned = new Set(state.assignment.map((tp) => partitionKey(tp)));
  return rows.flatMap((row) => {
    if (!owned.has(partitionKey(row))) return [];
    const refusal = refused.find((r) => r.commandId!.toLowerCase() === row.command_id.toLowerCase());
    return refusal ? [{ row, reason: refusal.reason }] : [];
  });
}

/**
 * Replaces the instance's consumer_partition_state rows: every row of a partition it reports (whoever wrote it:
 * it owns the partition now) is written anew, and its rows of partitions it no longer has are removed. A
 * message cut short to fit (`truncated`) leaves out partitions it still owns: their rows stay until it reports
 * them again. A 'stopped' instance's rows are all removed.
 */
async function writePartitionStates(
  tx: Prisma.TransactionClient,
  state: TInstanceState,
  cluster: string,
): Promise<void> {
  const { groupId, instanceId } = state;
  if (state.status === 'stopped') {
    await tx.consumerPartitionState.deleteMany({ where: { cluster, groupId, instanceId } });
    return;
  }
  const rows = partitionStateRows(state, cluster);
  const kept = state.truncated ? state.assignment : state.partitions;
  await tx.$executeRaw`
    DELETE FROM consumer_partition_state
    WHERE cluster = ${cluster} AND group_id = ${groupId} AND instance_id = ${instanceId}
      AND (topic, partition) NOT IN (SELECT * FROM unnest(${kept.map((p) => p.topic)}::text[], ${kept.map((p) => p.partition)}::int[]))`;
  if (rows.length === 0) return;
  // One statement for every partition; a row another instance wrote for the partition is replaced (the newest
  // report of an owner wins, and two ingesters writing the same partition at once cannot collide).
  const text = (offset: bigint | null) => (offset === null ? null : offset.toString());
  await tx.$executeRaw`
    INSERT INTO consumer_partition_state (cluster, group_id, topic, partition, instance_id, sampled_at, watermark,
      highest_completed, in_flight, completed_uncommitted, buffered, buffered_bytes, oldest_unfinished_offset,
      oldest_unfinished_age_ms, paused)
    SELECT ${cluster}, ${groupId}, u.topic, u.partition, ${instanceId}, ${new Date(state.publishedAtMs)}, u.watermark,
      u.highest_completed, u.in_flight, u.completed_uncommitted, u.buffered, u.buffered_bytes,
      u.oldest_unfinished_offset, u.oldest_unfinished_age_ms, u.paused
    FROM unnest(
      ${rows.map((r) => r.topic)}::text[], ${rows.map((r) => r.partition)}::int[],
      ${rows.map((r) => text(r.watermark))}::bigint[], ${rows.map((r) => text(r.highestCompleted))}::bigint[],
      ${rows.map((r) => r.inFlight)}::int[], ${rows.map((r) => r.completedUncommitted)}::int[],
      ${rows.map((r) => r.buffered)}::int[], ${rows.map((r) => r.bufferedBytes)}::int[],
      ${rows.map((r) => text(r.oldestUnfinishedOffset))}::bigint[], ${rows.map((r) => r.oldestUnfinishedAgeMs)}::int[],
      ${rows.map((r) => r.paused)}::boolean[]
    ) AS u(topic, partition, watermark, highest_completed, in_flight, completed_uncommitted, buffered, buffered_bytes,
      oldest_unfinished_offset, oldest_unfinished_age_ms, paused)
    ON CONFLICT (cluster, group_id, topic, partition) DO UPDATE SET
      instance_id = EXCLUDED.instance_id, sampled_at = EXCLUDED.sampled_at, watermark = EXCLUDED.watermark,
      highest_completed = EXCLUDED.highest_completed, in_flight = EXCLUDED.in_flight,
      completed_uncommitted = EXCLUDED.completed_uncommitted, buffered = EXCLUDED.buffered,
      buffered_bytes = EXCLUDED.buffered_bytes, oldest_unfinished_offset = EXCLUDED.oldest_unfinished_offset,
      oldest_unfinished_age_ms = EXCLUDED.oldest_unfinished_age_ms, paused = EXCLUDED.paused`;
}

/**
 * The rebalance_event rows of the stops this instance reports that are not stored yet, each member named as
 * the group names it where the broker answers within IDENTIFY_TIMEOUT_MS (once per member id).
 */
async function newRebalanceRows(
  options: IngestOptions,
  state: TInstanceState,
): Promise<Prisma.RebalanceEventCreateManyInput[]> {
  if (state.rebalances.length === 0) return [];
  const { db, cluster } = options;
  const stored = await db.rebalanceEvent.findMany({
    where: {
      cluster,
      groupId: state.groupId,
      reportedBy: state.instanceId,
      startedAt: { in: state.rebalances.map(stopStartedAt) },
    },
    select: { startedAt: true },
  });
  const storedStarts = new Set(stored.map((row) => row.startedAt.getTime()));
  const fresh = state.rebalances.filter((stop) => !storedStarts.has(stopStartedAt(stop).getTime()));
  if (fresh.length === 0) return [];
  const own: MemberIdentity = { clientId: state.clientId, clientHost: state.host };
  const names = new Map<string, Promise<MemberIdentity>>();
  const nameOf = (memberId: string) => {
    let name = names.get(memberId);
    if (!name) {
      name = identifyWithin(options, state.groupId, memberId).then((identity) => identity ?? own);
      names.set(memberId, name);
    }
    return name;
  };
  const reporter = { cluster, groupId: state.groupId, instanceId: state.instanceId };
  return Promise.all(fresh.map(async (stop) => measuredRebalanceRow(stop, reporter, await nameOf(stop.memberId))));
}

/** The group's name of a member, or null when it cannot say within IDENTIFY_TIMEOUT_MS (never throws). */
async function identifyWithin(
  options: IngestOptions,
  groupId: string,
  memberId: string,
): Promise<MemberIdentity | null> {
  if (!options.identify) return null;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      options.identify(groupId, memberId),
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), IDENTIFY_TIMEOUT_MS))),
    ]);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

function recordOf(row: ActionRow, status: string, outcome: string): RecordedOutcome {
  return {
    actionId: row.id,
    commandId: row.command_id,
    action: row.action,
    groupId: row.group_id,
    topic: row.topic,
    partition: row.partition,
    status,
    outcome,
  };
}
