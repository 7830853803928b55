import type { Database } from '../../lib/db';
import { originalHeaders, type DeadLetterRecord } from '../../lib/dead-letters/dead-letter-record';
import { selectedRecords, selectionRanges, type PartitionOffsets } from '../../lib/dead-letters/redrive-selection';
import type { RecordSource } from '../../lib/kafka/partition-records';
import { REDRIVE_HEADERS, ZRedriveSelection, type TRedriveSelection } from '../../lib/schemas/dead-letters';
import type { Clock } from '@warden/consumer';

// Runs redrive jobs (redrive_job rows) in the worker: produces the selected dead letters back to their source
// topic (or the job's target topic) at the job's rate, with progress, pause and cancel, and resumes a job whose
// worker died without sending any record twice.
//
// The send protocol, per batch of records (the ledger is redriven_record):
//   1. one Postgres transaction, only while this worker still holds the job's lease: a 'sending' ledger row per
//      record naming the target partition and `searchFrom`, that partition's log end read just before;
//   2. one produce (acks=all) of the batch, each record carrying `warden-redrive-id` and `warden-redrive-of`;
//   3. one transaction: the rows turn 'sent' (with their target offsets), the job's counts and position move.
// A worker that takes over a job first resolves every 'sending' row: it reads the target partition from
// `searchFrom` to its end and marks the row 'sent' when a record carrying this job's id and the row's
// coordinates is there, else deletes the row so the record is sent again. A record is therefore never sent
// twice and never skipped, provided a produce of the dead worker is in the log or lost by the time the lease
// has lapsed (a killed process's request is appended or dropped by the broker at once; a worker only *stalled*
// longer than REDRIVE_LEASE_MS between steps 1 and 2 could still send after a takeover: the one case not covered).
// Without `force`, a record some other job already redrove is skipped and counted, never sent again.

export interface RedriveMessage {
  partition: number;
  key: Buffer | null;
  value: Buffer | null;
  timestamp: string;
  headers: Record<string, Buffer | Buffer[] | string>;
}

/** Produces one batch to one topic with acks=all; resolves with the offset each message got, in order when known. */
export type RedriveSend = (
  topic: string,
  messages: RedriveMessage[],
) => Promise<Array<{ partition: number; baseOffset: bigint }>>;

export interface RedriveRunnerOptions {
  db: Database;
  source: RecordSource;
  send: RedriveSend;
  clock: Clock;
  instanceId: string;
  leaseMs: number;
  cluster?: string;
  /** Records per batch at most (a batch is sent in one produce; the rate spaces batches). */
  batchMax?: number;
  onProgress?: (job: { id: bigint; sent: number; skipped: number; status: string }) => void;
}

interface ClaimedJob {
  id: bigint;
  dlq_topic: string;
  selection: unknown;
  end_offsets: PartitionOffsets;
  position: PartitionOffsets;
  target_topic: string | null;
  force: boolean;
  rate_per_sec: number;
  total: number;
  sent: number;
  skipped: number;
}

interface PlannedRecord {
  letter: DeadLetterRecord;
  targetTopic: string;
  targetPartition: number;
}

export class RedriveRunner {
  private readonly cluster: string;
  private readonly batchMax: number;
  private stopping = false;

  constructor(private readonly options: RedriveRunnerOptions) {
    this.cluster = options.cluster ?? 'default';
    this.batchMax = options.batchMax ?? 100;
  }

  /**
   * Ends the running job's batch loop at the next batch boundary and hands the job back ('pending', no holder),
   * so another worker continues it at once instead of after the lease; the caller then awaits the round.
   */
  requestStop(): void {
    this.stopping = true;
  }

  /** One round: claims a runnable job, if any, and runs it until it ends, pauses, is cancelled or the lease is lost. */
  async round(): Promise<boolean> {
    if (this.stopping) return false;
    const job = await this.claim();
    if (job === null) return false;
    try {
      await this.run(job);
    } catch (error) {
      await this.options.db.$executeRaw`
        UPDATE redrive_job SET status = 'failed', outcome = ${`failed: ${(error as Error).message}`.slice(0, 2_000)},
          updated_at = now(), completed_at = now(), lease_until = NULL
        WHERE id = ${job.id} AND executed_by = ${this.options.instanceId} AND status = 'running'`;
      throw error;
    }
    return true;
  }

  /** A pending job, or a running one whose lease lapsed (its worker died): now held by this worker. */
  private async claim(): Promise<ClaimedJob | null> {
    const leaseUntil = new Date(this.options.clock.now() + this.options.leaseMs);
    const rows = await this.options.db.$queryRaw<ClaimedJob[]>`
      UPDATE redrive_job SET status = 'running', executed_by = ${this.options.instanceId}, lease_until = ${leaseUntil},
        updated_at = now()
      WHERE id = (
        SELECT id FROM redrive_job
        WHERE cluster = ${this.cluster}
          AND (status = 'pending' OR (status = 'running' AND lease_until < ${new Date(this.options.clock.now())}))
        ORDER BY requested_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id, dlq_topic, selection, end_offsets, position, target_topic, force, rate_per_sec, total, sent, skipped`;
    return rows[0] ?? null;
  }

  private async run(job: ClaimedJob): Promise<void> {
    const { db, source, clock } = this.options;
    await this.resolveSending(job);
    const selection: TRedriveSelection = ZRedriveSelection.parse(job.selection);
    const ranges = await selectionRanges(source, job.dlq_topic, selection, {
      ends: job.end_offsets,
      from: job.position,
    });
    const own = await this.ownLedger(job.id);
    const batchSize = Math.max(1, Math.min(this.batchMax, Math.ceil(job.rate_per_sec / 5)));
    const startedAt = clock.now();
    let sentHere = 0;
    let batch: DeadLetterRecord[] = [];
    const targetPartitions = new Map<string, number>();
    const position: PartitionOffsets = { ...job.position };
    let { sent, skipped } = job;

    const flush = async (): Promise<boolean> => {
      if (batch.length === 0) return true;
      // Keep to the rate: this batch may start once the records sent so far fit the elapsed time.
      const dueAt = startedAt + (sentHere * 1_000) / job.rate_per_sec;
      if (dueAt > clock.now()) await sleep(clock, dueAt - clock.now());
      if (this.stopping) {
        await this.release(job.id);
        return false;
      }
      const status = await this.currentStatus(job.id);
      if (status !== 'running') return false;
      const letters = batch;
      batch = [];
      const fresh = letters.filter((l) => !own.has(`${l.record.partition}:${l.record.offset}`));
      const redrivenElsewhere = job.force ? new Set<string>() : await this.redrivenByOthers(job, fresh);
      const toSend = fresh.filter((l) => !redrivenElsewhere.has(`${l.record.partition}:${l.record.offset}`));
      const planned = await this.plan(job, toSend, targetPartitions);
      for (const l of letters) position[l.record.partition] = (l.record.offset + 1n).toString();
      const stillHeld = await this.recordSending(job, planned);
      if (!stillHeld) return false;
      const offsets = await this.produce(job, planned);
      skipped += redrivenElsewhere.size;
      sent += planned.length;
      sentHere += letters.length;
      await this.recordSent(job, planned, offsets, { sent, skipped, position });
      this.options.onProgress?.({ id: job.id, sent, skipped, status: 'running' });
      return true;
    };

    for await (const letter of selectedRecords(source, job.dlq_topic, selection, ranges)) {
      batch.push(letter);
      if (batch.length >= batchSize && !(await flush())) return;
    }
    if (!(await flush())) return;
    await db.$executeRaw`
      UPDATE redrive_job SET status = 'done', updated_at = now(), completed_at = now(), lease_until = NULL,
        outcome = ${`sent ${sent}, skipped ${skipped} (redriven before)${job.total !== sent + skipped ? `, ${job.total - sent - skipped} no longer in the topic` : ''}`}
      WHERE id = ${job.id} AND executed_by = ${this.options.instanceId} AND status = 'running'`;
    this.options.onProgress?.({ id: job.id, sent, skipped, status: 'done' });
  }

  private async release(id: bigint): Promise<void> {
    await this.options.db.$executeRaw`
      UPDATE redrive_job SET status = 'pending', executed_by = NULL, lease_until = NULL, updated_at = now()
      WHERE id = ${id} AND executed_by = ${this.options.instanceId} AND status = 'running'`;
  }

  private async currentStatus(id: bigint): Promise<string | null> {
    const rows = await this.options.db.$queryRaw<Array<{ status: string; executed_by: string | null }>>`
      SELECT status, executed_by FROM redrive_job WHERE id = ${id}`;
    const row = rows[0];
    if (!row || row.executed_by !== this.options.instanceId) return null;
    return row.status;
  }

  /** DLQ records of this job already in its ledger as sent (after a takeover): never sent again. */
  private async ownLedger(jobId: bigint): Promise<Set<string>> {
    const rows = await this.options.db.redrivenRecord.findMany({
      where: { jobId },
      select: { dlqPartition: true, dlqOffset: true },
    });
    return new Set(rows.map((r) => `${r.dlqPartition}:${r.dlqOffset}`));
  }

  private async redrivenByOthers(job: ClaimedJob, letters: DeadLetterRecord[]): Promise<Set<string>> {
    if (letters.length === 0) return new Set();
    const rows = await this.options.db.$queryRaw<Array<{ dlq_partition: number; dlq_offset: bigint }>>`
      SELECT DISTINCT r.dlq_partition, r.dlq_offset
      FROM unnest(${letters.map((l) => l.record.partition)}::int[], ${letters.map((l) => l.record.offset)}::bigint[]) AS q(p, o)
      JOIN redriven_record r ON r.cluster = ${this.cluster} AND r.dlq_topic = ${job.dlq_topic}
        AND r.dlq_partition = q.p AND r.dlq_offset = q.o AND r.job_id <> ${job.id}`;
    return new Set(rows.map((r) => `${r.dlq_partition}:${r.dlq_offset}`));
  }

  /** Where each record goes: its source partition of its source topic, or of the job's target topic (modulo its partitions). */
  private async plan(
    job: ClaimedJob,
    letters: DeadLetterRecord[],
    partitionCounts: Map<string, number>,
  ): Promise<PlannedRecord[]> {
    const planned: PlannedRecord[] = [];
    for (const letter of letters) {
      const targetTopic = job.target_topic ?? letter.sourceTopic;
      if (targetTopic === null)
        throw new Error(`${job.dlq_topic} ${letter.record.partition}:${letter.record.offset} names no source topic`);
      let count = partitionCounts.get(targetTopic);
      if (count === undefined) {
        const logs = await this.options.source.partitionLogs(targetTopic);
        if (logs === null || logs.length === 0) throw new Error(`target topic ${targetTopic} does not exist`);
        count = logs.length;
        partitionCounts.set(targetTopic, count);
      }
      const partition = (letter.sourcePartition ?? letter.record.partition) % count;
      planned.push({ letter, targetTopic, targetPartition: partition });
    }
    return planned;
  }

  /** Step 1: the 'sending' rows and a renewed lease, only while this worker holds the job and it runs. */
  private async recordSending(job: ClaimedJob, planned: PlannedRecord[]): Promise<boolean> {
    const searchFrom = new Map<string, bigint>();
    for (const topic of new Set(planned.map((p) => p.targetTopic))) {
      for (const log of (await this.options.source.partitionLogs(topic)) ?? [])
        searchFrom.set(`${topic}\u0000${log.partition}`, log.high);
    }
    const leaseUntil = new Date(this.options.clock.now() + this.options.leaseMs);
    return this.options.db.$transaction(async (tx) => {
      const held = await tx.$executeRaw`
        UPDATE redrive_job SET lease_until = ${leaseUntil}, updated_at = now()
        WHERE id = ${job.id} AND executed_by = ${this.options.instanceId} AND status = 'running'`;
      if (held !== 1) return false;
      if (planned.length > 0) {
        await tx.redrivenRecord.createMany({
          data: planned.map((p) => ({
            cluster: this.cluster,
            jobId: job.id,
            dlqTopic: job.dlq_topic,
            dlqPartition: p.letter.record.partition,
            dlqOffset: p.letter.record.offset,
            targetTopic: p.targetTopic,
            targetPartition: p.targetPartition,
            searchFrom: searchFrom.get(`${p.targetTopic}\u0000${p.targetPartition}`) ?? 0n,
            state: 'sending',
          })),
        });
      }
      return true;
    });
  }

  /** Step 2: one produce per target topic; the offsets each record got. */
  private async produce(job: ClaimedJob, planned: PlannedRecord[]): Promise<Map<PlannedRecord, bigint | null>> {
    const offsets = new Map<PlannedRecord, bigint | null>();
    for (const topic of new Set(planned.map((p) => p.targetTopic))) {
      const group = planned.filter((p) => p.targetTopic === topic);
      const results = await this.options.send(
        topic,
        group.map((p) => redriveMessage(job, p)),
      );
      // kafkajs answers one base offset per partition; the partition's records follow it in send order.
      const next = new Map(results.map((r) => [r.partition, r.baseOffset]));
      for (const p of group) {
        const base = next.get(p.targetPartition);
        offsets.set(p, base ?? null);
        if (base !== undefined) next.set(p.targetPartition, base + 1n);
      }
    }
    return offsets;
  }

  /** Step 3: the rows are sent, the job's progress moves, in one transaction. */
  private async recordSent(
    job: ClaimedJob,
    planned: PlannedRecord[],
    offsets: Map<PlannedRecord, bigint | null>,
    progress: { sent: number; skipped: number; position: PartitionOffsets },
  ): Promise<void> {
    const partitions = planned.map((p) => p.letter.record.partition);
    const dlqOffsets = planned.map((p) => p.letter.record.offset);
    const targetOffsets = planned.map((p) => offsets.get(p) ?? null);
    await this.options.db.$transaction([
      this.options.db.$executeRaw`
        UPDATE redriven_record r SET state = 'sent', target_offset = q.t
        FROM unnest(${partitions}::int[], ${dlqOffsets}::bigint[], ${targetOffsets}::bigint[]) AS q(p, o, t)
        WHERE r.job_id = ${job.id} AND r.dlq_topic = ${job.dlq_topic} AND r.dlq_partition = q.p AND r.dlq_offset = q.o`,
      this.options.db.redriveJob.update({
        where: { id: job.id },
        data: { sent: progress.sent, skipped: progress.skipped, position: progress.position, updatedAt: new Date() },
      }),
    ]);
  }

  /**
   * After a takeover: every 'sending' row of the job is looked for in its target partition, from `searchFrom`
   * to the log end, by this job's id and the row's coordinates; found rows are sent, the rest are deleted so
   * their records are sent again. The job's sent count is recomputed from the ledger.
   */
  private async resolveSending(job: ClaimedJob): Promise<void> {
    const { db, source } = this.options;
    const sending = await db.redrivenRecord.findMany({ where: { jobId: job.id, state: 'sending' } });
    if (sending.length === 0) return;
    const found = new Map<string, bigint>();
    const partitions = new Map<string, { topic: string; partition: number; from: bigint }>();
    for (const row of sending) {
      const key = `${row.targetTopic}\u0000${row.targetPartition}`;
      const current = partitions.get(key);
      if (!current || row.searchFrom < current.from)
        partitions.set(key, { topic: row.targetTopic, partition: row.targetPartition, from: row.searchFrom });
    }
    for (const { topic, partition, from } of partitions.values()) {
      const high = (await source.partitionLogs(topic))?.find((l) => l.partition === partition)?.high ?? from;
      let next = from;
      while (next < high) {
        const records = await source.readRange(topic, partition, next, high, 1_000);
        if (records.length === 0) break;
        for (const record of records) {
          const id = headerString(record.headers[REDRIVE_HEADERS.id]);
          const of = headerString(record.headers[REDRIVE_HEADERS.of]);
          if (id === job.id.toString() && of !== null) found.set(of, record.offset);
        }
        next = records[records.length - 1]!.offset + 1n;
      }
    }
    await db.$transaction(async (tx) => {
      for (const row of sending) {
        const where = {
          jobId_dlqTopic_dlqPartition_dlqOffset: {
            jobId: row.jobId,
            dlqTopic: row.dlqTopic,
            dlqPartition: row.dlqPartition,
            dlqOffset: row.dlqOffset,
          },
        };
        const at = found.get(redriveOf(row.dlqTopic, row.dlqPartition, row.dlqOffset));
        if (at === undefined) await tx.redrivenRecord.delete({ where });
        else await tx.redrivenRecord.update({ where, data: { state: 'sent', targetOffset: at } });
      }
      const sent = await tx.redrivenRecord.count({ where: { jobId: job.id, state: 'sent' } });
      await tx.redriveJob.update({ where: { id: job.id }, data: { sent, updatedAt: new Date() } });
      job.sent = sent;
    });
  }
}

/** `warden-redrive-of`: "<dlq topic>/<partition>/<offset>". */
export function redriveOf(topic: string, partition: number, offset: bigint): string {
  return `${topic}/${partition}/${offset}`;
}

function redriveMessage(job: ClaimedJob, p: PlannedRecord): RedriveMessage {
  const { record } = p.letter;
  return {
    partition: p.targetPartition,
    key: record.key,
    value: record.value,
    timestamp: String(record.timestampMs),
    headers: {
      ...originalHeaders(record),
      [REDRIVE_HEADERS.of]: redriveOf(job.dlq_topic, record.partition, record.offset),
      [REDRIVE_HEADERS.id]: job.id.toString(),
    },
  };
}

function headerString(value: Buffer | Buffer[] | undefined): string | null {
  if (value === undefined) return null;
  const first = Array.isArray(value) ? value[0] : value;
  return first?.toString('utf8') ?? null;
}

function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimeout(resolve, ms));
}
