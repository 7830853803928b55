import type { Database } from '../db';
import type { RecordLoss, TopicRetention } from '../generated/prisma/client';
import { unreadableSettings, type TopicRetentionSettings } from '../lag/retention-risk';
import type { LossEpisode } from '../analysis/retention';
import { RECORD_LOSS_LISTED_DAYS } from '../schemas/values';

// What the analysis needs of retention besides the samples: each topic's settings as the sampler stored them
// (topic_retention) and the groups' record-loss episodes (record_loss). Both tables are small: one row per
// watched topic, one per episode (kept 90 days).

/** The columns of a topic_retention row the retention rule reads (the sampler's rows before they are stored too). */
export type StoredTopicRetention = Pick<
  TopicRetention,
  | 'cleanupPolicy'
  | 'retentionMs'
  | 'retentionBytes'
  | 'segmentMs'
  | 'segmentBytes'
  | 'checkIntervalMs'
  | 'readError'
  | 'recordBytes'
>;

/**
 * A stored settings row as the rule reads it: a refused topic is unreadable whatever else the row holds; a
 * number column the sampler could not read stays null.
 */
export function settingsFromRow(row: StoredTopicRetention): TopicRetentionSettings {
  if (row.readError !== null) return unreadableSettings(row.readError);
  const number = (value: bigint | null) => (value === null ? null : Number(value));
  return {
    cleanupPolicy: row.cleanupPolicy,
    retentionMs: number(row.retentionMs),
    retentionBytes: number(row.retentionBytes),
    segmentMs: number(row.segmentMs),
    segmentBytes: number(row.segmentBytes),
    checkIntervalMs: number(row.checkIntervalMs),
    recordBytes: row.recordBytes,
    readError: row.readError,
  };
}

export function lossFromRow(row: RecordLoss): LossEpisode {
  return {
    id: row.id,
    topic: row.topic,
    partition: row.partition,
    fromOffset: row.fromOffset,
    toOffset: row.toOffset,
    count: row.count,
    basis: row.basis,
    detectedAt: row.detectedAt,
    updatedAt: row.updatedAt,
    endedAt: row.endedAt,
    acknowledgedAt: row.acknowledgedAt,
    acknowledgedBy: row.acknowledgedBy,
    acknowledgeReason: row.acknowledgeReason,
    acknowledgedToOffset: row.acknowledgedToOffset,
  };
}

/** Every stored topic's settings of `cluster`, by topic. */
export async function loadRetentionSettings(
  db: Database,
  cluster: string,
): Promise<Map<string, TopicRetentionSettings>> {
  const rows = await db.topicRetention.findMany({ where: { cluster } });
  return new Map(rows.map((row) => [row.topic, settingsFromRow(row)]));
}

/**
 * The loss episodes of `groupIds` that still matter at `nowMs`: every one not acknowledged as it stands
 * (never acknowledged, or extended since), and every other one detected, extended, acknowledged or ended
 * within RECORD_LOSS_LISTED_DAYS. Per group, newest first.
 */
export async function loadRecordLosses(
  db: Database,
  cluster: string,
  groupIds: readonly string[],
  nowMs: number,
): Promise<Map<string, LossEpisode[]>> {
  const byGroup = new Map<string, LossEpisode[]>();
  if (groupIds.length === 0) return byGroup;
  const since = new Date(nowMs - RECORD_LOSS_LISTED_DAYS * 86_400_000);
  const rows = await db.$queryRaw<RecordLoss[]>`
    SELECT id, cluster, group_id AS "groupId", topic, partition, from_offset AS "fromOffset", to_offset AS "toOffset",
      count, basis, detected_at AS "detectedAt", updated_at AS "updatedAt", ended_at AS "endedAt",
      acknowledged_at AS "acknowledgedAt", acknowledged_by AS "acknowledgedBy",
      acknowledge_reason AS "acknowledgeReason", acknowledged_to_offset AS "acknowledgedToOffset"
    FROM record_loss
    WHERE cluster = ${cluster} AND group_id = ANY(${[...groupIds]}::text[])
      AND (acknowledged_at IS NULL OR acknowledged_to_offset < to_offset OR updated_at >= ${since}
        OR acknowledged_at >= ${since} OR ended_at IS NULL OR ended_at >= ${since})
    ORDER BY detected_at DESC, id DESC`;
  for (const row of rows) {
    const list = byGroup.get(row.groupId) ?? [];
    list.push(lossFromRow(row));
    byGroup.set(row.groupId, list);
  }
  return byGroup;
}
