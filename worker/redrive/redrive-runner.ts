import type { Database } from '../../lib/db';
import { originalHeaders, type DeadLetterRecord } from '../../lib/dead-letters/dead-letter-record';
import type { PartitionRange } from '../../lib/dead-letters/read-dead-letters';
import { selectedRecords, selectionRanges, type PartitionOffsets } from '../../lib/dead-letters/redrive-selection';
import type { RecordSource } from '../../lib/kafka/partition-records';
import { REDRIVE_HEADERS, ZRedriveSelection, type TRedriveSelection } from '../../lib/schemas/dead-letters';
import type { Clock } from '@warden/consumer';
import {
  RedriveFencedError,
  type OpenedRedrive,
  type RedriveMessage,
  type RedriveSend,
  type RedriveSent,
  type RedriveTransport,
} from './redrive-transport';

// Runs redrive jobs (redrive_job rows) in the worker: produces the selected dead letters back to their source
// topic (or the job's target topic) at the job's rate, with progress, pause and cancel, exactly once for
// read_committed readers of the target, across worker deaths, stalls and takeovers
// (docs/decisions/0044-redrive-transactions.md).
//
// Each batch, after the job's producer is opened (redrive-transport.ts: that fences every earlier holder):
//   1. one Postgres statement: the job's status and holder, and which of the batch's records another job
//      already redrove (without `force` those are skipped and counted, never sent);
//   2. one Kafka transaction: the records to send and the job's dead-letter position after the batch (the
//      consumer group `warden-redrive-<cluster>-<jobId>`), committed together;
//   3. one Postgres statement: the batch's ledger rows (redriven_record, state 'sent', with target offsets) and
//      the job's counts, position and lease, the counts only while this worker still holds the job.
// The position committed in Kafka is the authority: it moves only with the records it covers. Postgres
// follows it by at most one batch (a worker that died or stalled between 2 and 3); the worker that opens the
// job next finds the committed position ahead of the stored one, and records that gap's records as this job's
// (sent; skipped when another job's ledger holds them) without sending them again. A worker whose producer
// was fenced (another opened the job: it had stalled past REDRIVE_LEASE_MS) has had its open transaction
// aborted and fails its next send or commit: it stops working on the job at once and never retries it.
// A worker that was only stalled after step 3 finds at step 1 that it no longer holds the job.

/** Records per batch at most; a batch is otherwise a fifth of a second of the job's rate. */
const DEFAULT_BATCH_MAX = 1_000;
const BATCHES_PER_SECOND = 5;

export interface RedriveRunnerOptions {
  db: Database;
  source: RecordSource;
  transport: RedriveTransport;
  clock: Clock;
  instanceId: string;
  leaseMs: number;
  cluster?: string;
  /** Records per batch at most (default 1,000); one Kafka transaction each, the rate spaces them. */
  batchMax?: number;
  /** Test seam: awaited before each batch's Kafka transaction, after its Postgres check (`batch` counts from 0 per claim). */
  beforeCommit?: (at: { jobId: bigint; batch: number }) => Promise<void>;
  onProgress?: (job: { id: bigint; sent: number; skipped: number; status: string }) => void;
  /** Told when this worker's producer of a job was fenced: another worker runs the job now. */
  onFenced?: (jobId: bigint) => void;
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

const keyOf = (letter: DeadLetterRecord) => `${letter.record.partition}:${letter.record.offset}`;

export class RedriveRunner {
  private readonly cluster: string;
  private readonly batchMax: number;
  private stopping = false;

  constructor(private readonly options: RedriveRunnerOptions) {
    this.cluster = options.cluster ?? 'default';
    this.batchMax = options.batchMax ?? DEFAULT_BATCH_MAX;
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
    const resolved = await this.resolveSending(job);
    let opened: OpenedRedrive | null = null;
    try {
      opened = await this.options.transport.open({ cluster: this.cluster, id: job.id, dlqTopic: job.dlq_topic });
      if (await this.runOpened(job, opened, resolved))
        await this.options.transport.forget({ cluster: this.cluster, id: job.id });
    } catch (error) {
      if (!(error instanceof RedriveFencedError)) throw error;
      // Another worker opened the job since: its transaction of ours was aborted; hand back only what is ours.
      this.options.onFenced?.(job.id);
      await this.release(job.id);
    } finally {
      await opened?.producer.close().catch(() => undefined);
    }
  }

  /** The batch loop; true when the job is done. */
  private async runOpened(job: ClaimedJob, opened: OpenedRedrive, resolved: Set<string>): Promise<boolean> {
    const { db, source, clock } = this.options;
    const selection: TRedriveSelection = ZRedriveSelection.parse(job.selection);
    const targetPartitions = new Map<string, number>();
    const position = await this.catchUp(job, selection, opened.committed, targetPartitions);
    const ranges = await selectionRanges(source, job.dlq_topic, selection, { ends: job.end_offsets, from: position });
    const batchSize = Math.max(1, Math.min(this.batchMax, Math.ceil(job.rate_per_sec / BATCHES_PER_SECOND)));
    const startedAt = clock.now();
    let examined = 0;
    let batchIndex = 0;
    let batch: DeadLetterRecord[] = [];
    let { sent, skipped } = job;

    const flush = async (): Promise<boolean> => {
      if (batch.length === 0) return true;
      // Keep to the rate: a batch goes once the records examined before it fit the time since the start.
      const dueAt = startedAt + (examined * 1_000) / job.rate_per_sec;
      if (dueAt > clock.now()) await sleep(clock, dueAt - clock.now());
      if (this.stopping) {
        await this.release(job.id);
        return false;
      }
      const letters = batch;
      batch = [];
      const check = await this.check(job, job.force ? [] : letters);
      if (check === null || check.status !== 'running') return false;
      const toSend = letters.filter((l) => !check.elsewhere.has(keyOf(l)) && !resolved.has(keyOf(l)));
      const planned = await this.plan(job, toSend, targetPartitions);
      for (const l of letters) position[l.record.partition] = (l.record.offset + 1n).toString();
      await this.options.beforeCommit?.({ jobId: job.id, batch: batchIndex++ });
      const results = await opened.producer.commit(sendsOf(job, planned), { ...position });
      sent += planned.length;
      skipped += check.elsewhere.size;
      examined += letters.length;
      const status = await this.recordBatch(job, planned, targetOffsets(planned, results), { sent, skipped, position });
      if (status !== null) this.options.onProgress?.({ id: job.id, sent, skipped, status });
      return status === 'running';
    };

    for await (const letter of selectedRecords(source, job.dlq_topic, selection, ranges)) {
      batch.push(letter);
      if (batch.length >= batchSize && !(await flush())) return false;
    }
    if (!(await flush())) return false;
    const done = await db.$executeRaw`
      UPDATE redrive_job SET status = 'done', updated_at = now(), completed_at = now(), lease_until = NULL,
        outcome = ${`sent ${sent}, skipped ${skipped} (redriven before)${job.total !== sent + skipped ? `, ${job.total - sent - skipped} no longer in the topic` : ''}`}
      WHERE id = ${job.id} AND executed_by = ${this.options.instanceId} AND status = 'running'`;
    if (done !== 1) return false;
    this.options.onProgress?.({ id: job.id, sent, skipped, status: 'done' });
    return true;
  }

  /**
   * The position to continue from: the stored one, or where the job's committed transactions got to when
   * that is further (the previous holder stopped between its commit and its Postgres write). The records in
   * between were sent (or skipped) in those transactions: they are recorded as such, not sent again.
   */
  private async catchUp(
    job: ClaimedJob,
    selection: TRedriveSelection,
    committed: PartitionOffsets,
    targetPartitions: Map<string, number>,
  ): Promise<PartitionOffsets> {
    const position: PartitionOffsets = { ...job.position };
    const ahead = new Map<number, bigint>();
    for (const [partition, offset] of Object.entries(committed)) {
      const stored = position[partition];
      if (stored === undefined || BigInt(offset) > BigInt(stored)) ahead.set(Number(partition), BigInt(offset));
    }
    if (ahead.size === 0) return position;
    const ranges = await selectionRanges(this.options.source, job.dlq_topic, selection, {
      ends: job.end_offsets,
      from: job.position,
    });
    const gap: PartitionRange[] = ranges.map((r) => {
      const to = ahead.get(r.partition);
      return { ...r, end: to === undefined || to < r.start ? r.start : to < r.end ? to : r.end };
    });
    const letters: DeadLetterRecord[] = [];
    for await (const letter of selectedRecords(this.options.source, job.dlq_topic, selection, gap))
      letters.push(letter);
    for (const [partition, offset] of ahead) position[partition] = offset.toString();
    const check = await this.check(job, job.force ? [] : letters);
    const elsewhere = check?.elsewhere ?? new Set<string>();
    const planned = await this.plan(
      job,
      letters.filter((l) => !elsewhere.has(keyOf(l))),
      targetPartitions,
    );
    job.sent += planned.length;
    job.skipped += elsewhere.size;
    await this.recordBatch(job, planned, new Map(), { sent: job.sent, skipped: job.skipped, position });
    return position;
  }

  private async release(id: bigint): Promise<void> {
    await this.options.db.$executeRaw`
      UPDATE redrive_job SET status = 'pending', executed_by = NULL, lease_until = NULL, updated_at = now()
      WHERE id = ${id} AND executed_by = ${this.options.instanceId} AND status = 'running'`;
  }

  /**
   * Step 1: the job's status (null when another worker holds it now) and which of `letters` another job's
   * ledger holds ("partition:offset"), in one statement.
   */
  private async check(
    job: ClaimedJob,
    letters: readonly DeadLetterRecord[],
  ): Promise<{ status: string; elsewhere: Set<string> } | null> {
    const rows = await this.options.db.$queryRaw<
      Array<{ status: string; executed_by: string | null; elsewhere: string[] | null }>
    >`
      SELECT j.status, j.executed_by, (
        SELECT array_agg(DISTINCT r.dlq_partition::text || ':' || r.dlq_offset::text)
        FROM unnest(${letters.map((l) => l.record.partition)}::int[], ${letters.map((l) => l.record.offset)}::bigint[]) AS q(p, o)
        JOIN redriven_record r ON r.cluster = ${this.cluster} AND r.dlq_topic = ${job.dlq_topic}
          AND r.dlq_partition = q.p AND r.dlq_offset = q.o AND r.job_id <> j.id
      ) AS elsewhere
      FROM redrive_job j WHERE j.id = ${job.id}`;
    const row = rows[0];
    if (!row || row.executed_by !== this.options.instanceId) return null;
    return { status: row.status, elsewhere: new Set(row.elsewhere ?? []) };
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

  /**
   * Step 3, in one statement: the ledger rows of `planned` (sent; their target offsets when known), and the
   * job's counts, position and lease while this worker holds it. The job's status, or null when another
   * worker holds it now (the rows are written either way: their records are in committed transactions).
   */
  private async recordBatch(
    job: ClaimedJob,
    planned: readonly PlannedRecord[],
    offsets: Map<PlannedRecord, bigint>,
    progress: { sent: number; skipped: number; position: PartitionOffsets },
  ): Promise<string | null> {
    const leaseUntil = new Date(this.options.clock.now() + this.options.leaseMs);
    const rows = await this.options.db.$queryRaw<Array<{ status: string }>>`
      WITH ledger AS (
        INSERT INTO redriven_record (cluster, job_id, dlq_topic, dlq_partition, dlq_offset, target_topic,
          target_partition, search_from, state, target_offset)
        SELECT ${this.cluster}, ${job.id}, ${job.dlq_topic}, q.p, q.o, q.tt, q.tp, COALESCE(q.t, 0), 'sent', q.t
        FROM unnest(${planned.map((p) => p.letter.record.partition)}::int[],
          ${planned.map((p) => p.letter.record.offset)}::bigint[], ${planned.map((p) => p.targetTopic)}::text[],
          ${planned.map((p) => p.targetPartition)}::int[], ${planned.map((p) => offsets.get(p) ?? null)}::bigint[])
          AS q(p, o, tt, tp, t)
        ON CONFLICT (job_id, dlq_topic, dlq_partition, dlq_offset) DO UPDATE
          SET state = 'sent', target_offset = COALESCE(EXCLUDED.target_offset, redriven_record.target_offset)
      )
      UPDATE redrive_job SET sent = ${progress.sent}, skipped = ${progress.skipped},
        position = ${JSON.stringify(progress.position)}::jsonb, lease_until = ${leaseUntil}, updated_at = now()
      WHERE id = ${job.id} AND executed_by = ${this.options.instanceId}
      RETURNING status`;
    return rows[0]?.status ?? null;
  }

  /**
   * Ledger rows left 'sending' by a worker of the earlier ledger-only protocol (a 'sending' row, then a
   * produce, then 'sent'), when such a job is taken over: each is looked for in its target partition, from
   * `searchFrom` to the log end, by this job's id and the row's coordinates; found rows turn 'sent' and their
   * records are not sent again (the returned "partition:offset" keys), the rest are deleted so their records
   * are sent. The job's sent count is recomputed from the ledger.
   */
  private async resolveSending(job: ClaimedJob): Promise<Set<string>> {
    const { db, source } = this.options;
    const resolved = new Set<string>();
    const sending = await db.redrivenRecord.findMany({ where: { jobId: job.id, state: 'sending' } });
    if (sending.length === 0) return resolved;
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
        else {
          await tx.redrivenRecord.update({ where, data: { state: 'sent', targetOffset: at } });
          resolved.add(`${row.dlqPartition}:${row.dlqOffset}`);
        }
      }
      const sent = await tx.redrivenRecord.count({ where: { jobId: job.id, state: 'sent' } });
      await tx.redriveJob.update({ where: { id: job.id }, data: { sent, updatedAt: new Date() } });
      job.sent = sent;
    });
    return resolved;
  }
}

/** One send per target topic, its records in the order planned. */
function sendsOf(job: ClaimedJob, planned: readonly PlannedRecord[]): RedriveSend[] {
  const byTopic = new Map<string, RedriveMessage[]>();
  for (const p of planned) {
    const messages = byTopic.get(p.targetTopic) ?? [];
    messages.push(redriveMessage(job, p));
    byTopic.set(p.targetTopic, messages);
  }
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
}

/** Each planned record's target offset: its partition's base offset plus its place among that partition's records. */
function targetOffsets(planned: readonly PlannedRecord[], results: readonly RedriveSent[]): Map<PlannedRecord, bigint> {
  const next = new Map(results.map((r) => [`${r.topic}\u0000${r.partition}`, r.baseOffset]));
  const offsets = new Map<PlannedRecord, bigint>();
  for (const p of planned) {
    const key = `${p.targetTopic}\u0000${p.targetPartition}`;
    const base = next.get(key);
    if (base === undefined || base < 0n) continue;
    offsets.set(p, base);
    next.set(key, base + 1n);
  }
  return offsets;
}

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
