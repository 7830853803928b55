import type { Database } from '../../db';
import type { TRedriveMark } from '../../schemas/dead-letters';

/** A dead letter's place in the dead-letter topic. */
export interface DlqCoordinates {
  partition: number;
  offset: bigint;
}

const coordinateKey = (c: DlqCoordinates) => `${c.partition}:${c.offset}`;

/**
 * The newest redrive of each of `records` (sent, or being sent by a job that has not finished): the ledger
 * worker/redrive/ writes. Keyed "partition:offset".
 */
export async function loadRedriveMarks(
  db: Database,
  cluster: string,
  dlqTopic: string,
  records: readonly DlqCoordinates[],
): Promise<Map<string, TRedriveMark>> {
  if (records.length === 0) return new Map();
  const rows = await db.$queryRaw<
    Array<{
      dlq_partition: number;
      dlq_offset: bigint;
      job_id: bigint;
      redriven_at: Date;
      requested_by: string;
      target_topic: string;
    }>
  >`
    SELECT DISTINCT ON (r.dlq_partition, r.dlq_offset) r.dlq_partition, r.dlq_offset, r.job_id, r.redriven_at,
      j.requested_by, r.target_topic
    FROM unnest(${records.map((r) => r.partition)}::int[], ${records.map((r) => r.offset)}::bigint[]) AS q(p, o)
    JOIN redriven_record r ON r.cluster = ${cluster} AND r.dlq_topic = ${dlqTopic} AND r.dlq_partition = q.p AND r.dlq_offset = q.o
    JOIN redrive_job j ON j.id = r.job_id
    ORDER BY r.dlq_partition, r.dlq_offset, r.redriven_at DESC`;
  return new Map(
    rows.map((row) => [
      coordinateKey({ partition: row.dlq_partition, offset: row.dlq_offset }),
      {
        jobId: row.job_id.toString(),
        at: row.redriven_at.toISOString(),
        by: row.requested_by,
        targetTopic: row.target_topic,
      },
    ]),
  );
}

export { coordinateKey };
