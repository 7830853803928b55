import type { Database } from '../db';
import type { FetchedRecord, RecordSource } from '../kafka/partition-records';
import { previewOf } from '../kafka/record-preview';
import { DEFAULT_CLUSTER } from '../schemas/values';
import {
  AROUND_AFTER,
  AROUND_BEFORE,
  ZRecordsAround,
  type TPartitionRecord,
  type TRecordsAround,
} from '../schemas/quarantines';
import { notFound } from './api-error';

/**
 * GET /api/groups/{groupId}/partitions/{topic}/{partition}/records: AROUND_BEFORE records before the held
 * offset, the held record and AROUND_AFTER after it, read from the broker with a plain Fetch (no group, no
 * commit). 404 when the partition is not quarantined. Quarantines are held by the worker's own pipeline,
 * which consumes the default cluster, so the hold and the records are read there. Payload previews only when `showPayloads`.
 */
export async function readRecordsAround(
  db: Database,
  source: RecordSource,
  target: { groupId: string; topic: string; partition: number },
  showPayloads: boolean,
): Promise<TRecordsAround> {
  const hold = await db.partitionQuarantine.findUnique({
    where: { cluster_groupId_topic_partition: { cluster: DEFAULT_CLUSTER, ...target } },
    select: { offset: true },
  });
  if (!hold) throw notFound(`${target.topic}-${target.partition} of group "${target.groupId}" is not quarantined`);
  const log = (await source.partitionLogs(target.topic))?.find((l) => l.partition === target.partition);
  if (!log) throw notFound(`partition ${target.topic}-${target.partition} does not exist`);
  const held = hold.offset;
  const from = held - BigInt(AROUND_BEFORE) > log.low ? held - BigInt(AROUND_BEFORE) : log.low;
  const end = held + BigInt(AROUND_AFTER) + 1n < log.high ? held + BigInt(AROUND_AFTER) + 1n : log.high;
  const records =
    from < end
      ? await source.readRange(target.topic, target.partition, from, end, AROUND_BEFORE + AROUND_AFTER + 1)
      : [];
  const json = (r: FetchedRecord): TPartitionRecord => ({
    offset: r.offset.toString(),
    timestamp: new Date(Number.isFinite(r.timestampMs) && r.timestampMs >= 0 ? r.timestampMs : 0).toISOString(),
    key: showPayloads && r.key !== null ? previewOf(r.key) : null,
    preview: showPayloads && r.value !== null ? previewOf(r.value) : null,
    headers: showPayloads
      ? Object.fromEntries(
          Object.entries(r.headers).map(([k, v]) => [
            k,
            (Array.isArray(v) ? v : [v]).map((b) => previewOf(b)).join(', '),
          ]),
        )
      : {},
    valueBytes: r.value === null ? null : r.value.length,
  });
  return ZRecordsAround.parse({
    heldOffset: held.toString(),
    before: records.filter((r) => r.offset < held).map(json),
    held: records.find((r) => r.offset === held) ? json(records.find((r) => r.offset === held)!) : null,
    after: records.filter((r) => r.offset > held).map(json),
    payloadHidden: !showPayloads,
  });
}
