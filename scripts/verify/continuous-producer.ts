import {
  Partitioners,
  type Admin,
  type Kafka,
  type Message,
  type PartitionMetadata,
  type Producer,
  type RecordMetadata,
} from 'kafkajs';
import { readWholeTopic } from './observe';
import { encodeRecord, type PlannedRecord } from './records';
import type { ProducedRecord } from './verdict';

// The nemesis's producer: it sends the planned records at an even rate through the whole fault schedule,
// as Kafka's VerifiableProducer does, idempotent with acks=all. A record is acknowledged when its send
// resolved; a send that failed (after kafkajs's own retries) is not repeated, its records are unacknowledged
// and may or may not be in the log, and the producer is replaced so a later send never reuses the failed
// one's producer id and sequence numbers. The checker must find every acknowledged record.

/** How often the producer sends what has come due, and the most records one send carries. */
const SEND_EVERY_MS = 250;
const MOST_PER_SEND = 200;
/** A value this large goes alone in its send: two in one partition's batch would pass the broker's limit. */
const LARGE_VALUE_BYTES = 64 * 1024;

export interface ProducingSummary {
  acked: number;
  /** Records whose send failed: absent from the log or written without an acknowledgement. */
  unacked: number;
  failedSends: number;
  /** The longest stretch in which no send was acknowledged, in seconds. */
  longestUnackedSeconds: number;
}

export class ContinuousProducer {
  private readonly ackedRecords: ProducedRecord[] = [];
  private readonly unackedIds = new Set<string>();
  private readonly partitioner = Partitioners.DefaultPartitioner();
  private readonly partitionMetadata: PartitionMetadata[];
  private failedSends = 0;
  private longestUnackedMs = 0;

  constructor(
    private readonly kafka: Kafka,
    private readonly topic: string,
    private readonly planned: readonly PlannedRecord[],
    partitions: number,
  ) {
    // The default partitioner (the key's murmur2 hash), so a key's records share a partition as in the
    // scenarios that produce up front; computed here so every acknowledged record's offset is known.
    this.partitionMetadata = Array.from({ length: partitions }, (_, partitionId) => ({
      partitionId,
      leader: 0,
      partitionErrorCode: 0,
      replicas: [],
      isr: [],
    }));
  }

  /** The records acknowledged so far, with their positions from the acknowledgements. */
  get acked(): readonly ProducedRecord[] {
    return this.ackedRecords;
  }

  summary(): ProducingSummary {
    return {
      acked: this.ackedRecords.length,
      unacked: this.unackedIds.size,
      failedSends: this.failedSends,
      longestUnackedSeconds: Math.round(this.longestUnackedMs / 100) / 10,
    };
  }

  /** Sends every planned record, spread evenly over `durationMs`; resolves when the last send settled. */
  async run(durationMs: number): Promise<void> {
    const started = Date.now();
    let next = 0;
    let producer: Producer | null = null;
    let lastAck = started;
    try {
      while (next < this.planned.length) {
        const elapsed = Date.now() - started;
        const due = Math.min(this.planned.length, Math.ceil((this.planned.length * elapsed) / durationMs));
        if (due <= next) {
          await pause(SEND_EVERY_MS);
          continue;
        }
        for (const chunk of this.chunks(next, due)) {
          producer ??= await this.connect();
          if (!producer) break;
          try {
            const metadata = await producer.send({ topic: this.topic, acks: -1, messages: chunk.messages });
            this.acknowledge(chunk.records, chunk.messages, metadata);
            lastAck = Date.now();
          } catch {
            this.failedSends += 1;
            for (const { record } of chunk.records) this.unackedIds.add(record.id);
            await producer.disconnect().catch(() => undefined);
            producer = null;
          }
          this.longestUnackedMs = Math.max(this.longestUnackedMs, Date.now() - lastAck);
          next = chunk.end;
        }
        if (!producer) await pause(1_000);
      }
    } finally {
      await producer?.disconnect().catch(() => undefined);
    }
  }

  /**
   * Reads the whole topic after the run: every acknowledged record must be at its acknowledged position
   * (else the note says so and the run fails), and the unacknowledged records found in the log are added,
   * since the workers will process them. Returns every record in the log, in plan order.
   */
  async reconcile(admin: Admin, notes: string[]): Promise<ProducedRecord[]> {
    const positions = new Map<string, Array<{ partition: number; offset: bigint }>>();
    for (const m of await readWholeTopic(this.kafka, admin, this.topic)) {
      const id = m.headers['verify-id'];
      if (id === undefined) continue;
      positions.set(id, [...(positions.get(id) ?? []), { partition: m.partition, offset: BigInt(m.offset) }]);
    }
    const misplaced = this.ackedRecords.filter(
      (r) => !positions.get(r.id)?.some((p) => p.partition === r.partition && p.offset === r.offset),
    );
    if (misplaced.length > 0)
      notes.push(
        `scenario failed: ${misplaced.length} acknowledged record(s) not at their acknowledged position in ${this.topic}, ` +
          `for example ${misplaced
            .slice(0, 3)
            .map((r) => `${r.id} at ${r.partition}/${r.offset}`)
            .join(', ')}`,
      );
    const doubled = [...positions.values()].filter((p) => p.length > 1).length;
    if (doubled > 0) notes.push(`${doubled} record(s) are in the input log twice (a producer retry)`);
    const byId = new Map(this.ackedRecords.map((r) => [r.id, r] as const));
    const written = this.planned.flatMap((record): ProducedRecord[] => {
      const acked = byId.get(record.id);
      if (acked) return [acked];
      const first = positions.get(record.id)?.[0];
      return first ? [{ ...record, ...first }] : [];
    });
    const writtenUnacked = written.length - this.ackedRecords.length;
    const summary = this.summary();
    notes.push(
      `produced through the schedule: ${summary.acked} acknowledged, ${summary.unacked} in ${summary.failedSends} ` +
        `failed send(s) (${writtenUnacked} of them in the log anyway), longest without an acknowledgement ` +
        `${summary.longestUnackedSeconds} s`,
    );
    return written;
  }

  private async connect(): Promise<Producer | null> {
    const producer = this.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    try {
      await producer.connect();
      return producer;
    } catch {
      await producer.disconnect().catch(() => undefined);
      return null;
    }
  }

  /** Planned records start..end-1 as sends of at most MOST_PER_SEND, each large value alone. */
  private *chunks(start: number, end: number) {
    let records: Array<{ record: PlannedRecord; index: number }> = [];
    let messages: Message[] = [];
    const take = () => {
      const chunk = { records, messages, end: records.at(-1)!.index + 1 };
      records = [];
      messages = [];
      return chunk;
    };
    for (let index = start; index < end; index++) {
      const record = this.planned[index]!;
      const encoded = encodeRecord(record, index);
      const message: Message = { ...encoded, partition: this.partitionOf(encoded) };
      const large = (encoded.value?.length ?? 0) > LARGE_VALUE_BYTES;
      if (records.length > 0 && (large || records.length >= MOST_PER_SEND)) yield take();
      records.push({ record, index });
      messages.push(message);
      if (large) yield take();
    }
    if (records.length > 0) yield take();
  }

  private partitionOf(message: Omit<Message, 'partition'>): number {
    return this.partitioner({ topic: this.topic, partitionMetadata: this.partitionMetadata, message });
  }

  /** A partition's messages in one send are written in order from its base offset. */
  private acknowledge(
    records: ReadonlyArray<{ record: PlannedRecord }>,
    messages: readonly Message[],
    metadata: readonly RecordMetadata[],
  ): void {
    const next = new Map(metadata.map((m) => [m.partition, BigInt(m.baseOffset ?? '-1')] as const));
    records.forEach(({ record }, i) => {
      const partition = messages[i]!.partition!;
      const offset = next.get(partition);
      if (offset === undefined || offset < 0n) return void this.unackedIds.add(record.id);
      next.set(partition, offset + 1n);
      this.ackedRecords.push({ ...record, partition, offset });
    });
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
