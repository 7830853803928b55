import type { Message } from 'kafkajs';

// Results are published through one idempotent producer with one request in flight (ordering per partition
// across retries). A send per record therefore capped the whole pipeline at one produce round trip per
// record (~430 records/s in `npm run bench` (9)). Here every publish waiting while a request is in flight
// joins the next request: at low load a result goes out alone and at once, under load requests grow with
// the backlog, up to a byte budget per request (default 800,000 bytes of keys, values and headers: with the
// per-record framing still under the broker's default message.max.bytes, 1 MiB, even if every message lands
// in one partition) rather than a message count, so a 2,000-record batch's results go out in one request as raw kafkajs would send them. Nothing waits
// on a timer.
//
// Failure behaviour: a request that fails rejects every publish in it with the same error; each caller's
// record then retries or fails by its own classification, so a result may be published twice (results are
// at-least-once anyway: a redelivered record publishes its result again). Per-key order holds because the
// core never runs a key's next record before this one's publish resolved.

export interface ProduceRequest {
  topic: string;
  acks: number;
  messages: Message[];
}

export type SendPort = (request: ProduceRequest) => Promise<unknown>;

/** Told of each of its messages' outcome by index: one object for a whole batch's results, none per message. */
export interface PublishSink {
  acknowledged(index: number): void;
  failed(index: number, error: unknown): void;
}

interface Waiting {
  message: Message;
  bytes: number;
  sink: PublishSink;
  index: number;
}

/** The sink of a single `publish`: its promise's resolve and reject. */
class PromiseSink implements PublishSink {
  constructor(
    private readonly resolve: () => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  acknowledged(): void {
    this.resolve();
  }

  failed(_index: number, error: unknown): void {
    this.reject(error);
  }
}

export class BatchingPublisher {
  private waiting: Waiting[] = [];
  private sending = false;

  constructor(
    private readonly send: SendPort,
    private readonly topic: string,
    /** Most bytes (keys, values, headers) in one request; a single larger message still goes alone. */
    private readonly maxRequestBytes = 800_000,
  ) {
    if (!Number.isInteger(maxRequestBytes) || maxRequestBytes < 1)
      throw new RangeError(`maxRequestBytes must be a positive integer, got ${maxRequestBytes}`);
  }

  /** Resolves when the broker acknowledged the request carrying `message` (acks=all). */
  publish(message: Message): Promise<void> {
    return new Promise<void>((resolve, reject) => this.enqueue(message, new PromiseSink(resolve, reject), 0));
  }

  /** `publish` that tells `sink` instead: `acknowledged(index)` or `failed(index, error)`, once. */
  enqueue(message: Message, sink: PublishSink, index: number): void {
    this.waiting.push({ message, bytes: messageBytes(message), sink, index });
    // A microtask later, so publishes made in the same turn share the first request too.
    if (!this.sending) {
      this.sending = true;
      queueMicrotask(() => void this.sendWaiting());
    }
  }

  private async sendWaiting(): Promise<void> {
    while (this.waiting.length > 0) {
      let count = 0;
      let bytes = 0;
      while (count < this.waiting.length && (count === 0 || bytes + this.waiting[count]!.bytes <= this.maxRequestBytes))
        bytes += this.waiting[count++]!.bytes;
      const batch = this.waiting.splice(0, count);
      try {
        await this.send({ topic: this.topic, acks: -1, messages: batch.map((waiting) => waiting.message) });
        for (const waiting of batch) waiting.sink.acknowledged(waiting.index);
      } catch (error) {
        for (const waiting of batch) waiting.sink.failed(waiting.index, error);
      }
    }
    this.sending = false;
  }
}

/** What a message adds to a request, roughly: its key, value and header bytes (strings as UTF-8). */
function messageBytes(message: Message): number {
  let bytes = size(message.key) + size(message.value);
  if (message.headers) {
    for (const [name, value] of Object.entries(message.headers)) {
      bytes += Buffer.byteLength(name);
      for (const item of Array.isArray(value) ? value : [value]) bytes += size(item);
    }
  }
  return bytes;
}

function size(part: string | Buffer | null | undefined): number {
  if (part === null || part === undefined) return 0;
  return typeof part === 'string' ? Buffer.byteLength(part) : part.length;
}
