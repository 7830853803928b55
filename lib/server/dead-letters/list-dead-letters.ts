import type { Database } from '../../db';
import { headerPreviews, type DeadLetterRecord } from '../../dead-letters/dead-letter-record';
import {
  countDeadLetters,
  COUNT_SCAN_LIMIT,
  PAGE_SCAN_LIMIT,
  readDeadLetterPage,
} from '../../dead-letters/read-dead-letters';
import type { RecordSource } from '../../kafka/partition-records';
import { previewOf } from '../../kafka/record-preview';
import {
  ZDeadLetterCounts,
  ZDeadLettersResponse,
  type TDeadLetter,
  type TDeadLetterCounts,
  type TDeadLetterFilter,
  type TDeadLettersResponse,
  type TPayloadAccess,
  type TRedriveMark,
} from '../../schemas/dead-letters';
import { coordinateKey, loadRedriveMarks } from './redrive-marks';

export interface DeadLetterTopic {
  cluster: string;
  topic: string;
}

/**
 * GET /api/dead-letters: one page of the dead-letter topic, newest first, read from the broker (at most
 * PAGE_SCAN_LIMIT records per page), with each record's newest redrive from the ledger. Payload previews are
 * left out unless `showPayloads` (WARDEN_PAYLOAD_ACCESS decides it per caller).
 */
export async function listDeadLetters(
  db: Database,
  source: RecordSource,
  target: DeadLetterTopic,
  options: {
    filter: TDeadLetterFilter;
    cursor?: Map<number, bigint>;
    limit: number;
    showPayloads: boolean;
    payloadAccess: TPayloadAccess;
  },
): Promise<TDeadLettersResponse> {
  const page = await readDeadLetterPage(source, target.topic, options);
  const marks = await loadRedriveMarks(
    db,
    target.cluster,
    target.topic,
    page.letters.map((l) => ({ partition: l.record.partition, offset: l.record.offset })),
  );
  return ZDeadLettersResponse.parse({
    topic: target.topic,
    records: page.letters.map((l) =>
      deadLetterJson(target.topic, l, options.showPayloads, marks.get(coordinateKey(l.record)) ?? null),
    ),
    nextCursor:
      page.nextCursor === null
        ? null
        : [...page.nextCursor].map(([partition, offset]) => `${partition}:${offset}`).join(','),
    scanned: page.scanned,
    scanLimit: PAGE_SCAN_LIMIT,
    payloadAccess: options.payloadAccess,
  });
}

/** A dead letter as the API sends it; the payload (key, value, headers) only when `showPayloads`. */
export function deadLetterJson(
  topic: string,
  letter: DeadLetterRecord,
  showPayloads: boolean,
  redriven: TRedriveMark | null,
): TDeadLetter {
  const { record } = letter;
  const preview = showPayloads && record.value !== null ? previewOf(record.value) : null;
  return {
    dlq: { topic, partition: record.partition, offset: record.offset.toString() },
    timestamp: new Date(
      Number.isFinite(record.timestampMs) && record.timestampMs >= 0 ? record.timestampMs : 0,
    ).toISOString(),
    source: { topic: letter.sourceTopic, partition: letter.sourcePartition, offset: letter.sourceOffset },
    errorClass: letter.errorClass,
    errorMessage: letter.errorMessage,
    attempts: letter.attempts,
    key: showPayloads ? letter.keyPreview : null,
    preview,
    previewTruncated: preview !== null && preview.endsWith('…'),
    valueBytes: record.value === null ? null : record.value.length,
    headers: showPayloads ? headerPreviews(record) : {},
    payloadHidden: !showPayloads,
    redriven,
  };
}

/** GET /api/dead-letters/counts: by error class and by source, over the newest COUNT_SCAN_LIMIT records. */
export async function countDeadLetterTopic(source: RecordSource, topic: string): Promise<TDeadLetterCounts> {
  const counts = await countDeadLetters(source, topic, COUNT_SCAN_LIMIT);
  return ZDeadLetterCounts.parse({
    topic,
    scanned: counts.scanned,
    total: counts.total,
    scanLimit: COUNT_SCAN_LIMIT,
    byErrorClass: [...counts.byErrorClass]
      .map(([errorClass, count]) => ({ errorClass, count }))
      .sort((a, b) => b.count - a.count || a.errorClass.localeCompare(b.errorClass)),
    bySource: [...counts.bySource.values()].sort((a, b) => b.count - a.count),
  });
}
