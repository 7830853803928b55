import type { Database } from '../../db';
import { selectedRecords, selectionRanges, endsOf, SelectionTooLargeError } from '../../dead-letters/redrive-selection';
import type { RecordSource } from '../../kafka/partition-records';
import { MATCH_SCAN_LIMIT } from '../../dead-letters/read-dead-letters';
import {
  ZDeadLetterMatches,
  type TDeadLetterMatches,
  type TRedriveJob,
  type TRedriveRequest,
  type TRedriveSelection,
} from '../../schemas/dead-letters';
import { ApiError } from '../api-error';
import type { DeadLetterTopic } from './list-dead-letters';
import { loadRedriveMarks, type DlqCoordinates } from './redrive-marks';
import { redriveJobJson } from './redrive-job-json';

interface ResolvedSelection {
  coordinates: DlqCoordinates[];
  ends: Record<string, string>;
  /** Records the selection holds that name no source topic (not written by Warden's dead-letter writer). */
  withoutSource: DlqCoordinates[];
}

async function resolveSelection(
  source: RecordSource,
  topic: string,
  selection: TRedriveSelection,
): Promise<ResolvedSelection> {
  let ranges;
  try {
    ranges = await selectionRanges(source, topic, selection);
  } catch (error) {
    if (error instanceof SelectionTooLargeError) throw new ApiError(409, error.message, 'selection');
    throw error;
  }
  const coordinates: DlqCoordinates[] = [];
  const withoutSource: DlqCoordinates[] = [];
  for await (const letter of selectedRecords(source, topic, selection, ranges)) {
    const c = { partition: letter.record.partition, offset: letter.record.offset };
    coordinates.push(c);
    if (letter.sourceTopic === null) withoutSource.push(c);
  }
  if (selection.kind === 'records' && coordinates.length < selection.records.length) {
    const found = new Set(coordinates.map((c) => `${c.partition}:${c.offset}`));
    const missing = selection.records.find((r) => !found.has(`${r.partition}:${r.offset}`))!;
    throw new ApiError(
      400,
      `selection: offset ${missing.offset} of partition ${missing.partition} is not in ${topic} (never written, or removed by retention)`,
      'selection',
    );
  }
  return { coordinates, ends: endsOf(ranges), withoutSource };
}

/** GET /api/dead-letters/matches: what a redrive of this filter would send (the count the confirmation names). */
export async function matchDeadLetters(
  db: Database,
  source: RecordSource,
  target: DeadLetterTopic,
  selection: TRedriveSelection,
): Promise<TDeadLetterMatches> {
  const resolved = await resolveSelection(source, target.topic, selection);
  const marks = await loadRedriveMarks(db, target.cluster, target.topic, resolved.coordinates);
  return ZDeadLetterMatches.parse({
    topic: target.topic,
    count: resolved.coordinates.length,
    alreadyRedriven: marks.size,
    scanLimit: MATCH_SCAN_LIMIT,
  });
}

/**
 * POST /api/dead-letters/redrives: records a pending redrive job for worker/redrive/ to run. Nothing is
 * queued unless every check passes:
 * - 400: a named record is not in the topic; the target topic does not exist; a record names no source topic
 *   and no target topic was given;
 * - 409: the selection spans more than MATCH_SCAN_LIMIT records; it now matches another count than the one
 *   the operator confirmed; or (without force) some of its records were redriven before: the refusal names
 *   when, by whom and in which job, and is kept as a 'rejected' job row for the audit.
 * The job stores each partition's log end as it was now, so what it sends is what the operator counted.
 */
export async function requestRedrive(
  db: Database,
  source: RecordSource,
  target: DeadLetterTopic & { ratePerSec: number },
  request: TRedriveRequest,
  requestedBy: string,
): Promise<TRedriveJob> {
  if (request.targetTopic !== undefined && (await source.partitionLogs(request.targetTopic)) === null) {
    throw new ApiError(400, `targetTopic: topic "${request.targetTopic}" does not exist`, 'targetTopic');
  }
  const resolved = await resolveSelection(source, target.topic, request.selection);
  if (request.targetTopic === undefined && resolved.withoutSource.length > 0) {
    const first = resolved.withoutSource[0]!;
    throw new ApiError(
      400,
      `targetTopic: ${resolved.withoutSource.length} selected record(s) name no source topic (e.g. ${first.partition}:${first.offset}); give a target topic`,
      'targetTopic',
    );
  }
  const count = resolved.coordinates.length;
  if (count !== request.expectedCount) {
    throw new ApiError(
      409,
      `the selection now matches ${count} record(s), not the ${request.expectedCount} you confirmed; check the new count and confirm again`,
      'expectedCount',
    );
  }
  const base = {
    cluster: target.cluster,
    dlqTopic: target.topic,
    selection: request.selection,
    endOffsets: resolved.ends,
    targetTopic: request.targetTopic ?? null,
    reason: request.reason,
    requestedBy,
    force: request.force,
    ratePerSec: target.ratePerSec,
    total: count,
  };
  if (!request.force) {
    const marks = await loadRedriveMarks(db, target.cluster, target.topic, resolved.coordinates);
    if (marks.size > 0) {
      const [where, mark] = [...marks].sort((a, b) => (a[1].at < b[1].at ? 1 : -1))[0]!;
      const message =
        `${marks.size} of the ${count} selected record(s) were redriven before: e.g. ${target.topic} ${where} ` +
        `by ${mark.by} at ${mark.at} (redrive #${mark.jobId}, to ${mark.targetTopic}); send them again with force`;
      await db.redriveJob.create({
        data: { ...base, status: 'rejected', outcome: message, completedAt: new Date(), updatedAt: new Date() },
      });
      throw new ApiError(409, message, 'force');
    }
  }
  const job = await db.$transaction(async (tx) => {
    const created = await tx.redriveJob.create({ data: base });
    return created;
  });
  return redriveJobJson(job);
}
