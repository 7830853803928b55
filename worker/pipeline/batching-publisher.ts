import type { Message } from 'kafkajs';

// Results are published through one idempotent producer with one request in flight (ordering per partition
// across retries). A send per record therefore capped the whole pipeline at one produce round trip per
// record (~430 records/s in `npm run bench` (9)). Here every publish waiting while a request is in flight
// joins the next request: at low load a result goes out alone and at once, under load requests grow with
// the backlog. Nothing waits on a timer.
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

interface Waiting {
  message: Message;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class BatchingPublisher {
  private waiting: Waiting[] = [];
  private sending = false;

  constructor(
    private readonly send: SendPort,
    private readonly topic: string,
    /** Most messages in one request. */
    private readonly maxBatch = 500,
  ) {}

  /** Resolves when the broker acknowledged the request carrying `message` (acks=all). */
  publish(message: Message): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ message, resolve, reject });
      // A microtask later, so publishes made in the same turn share the first request too.
      if (!this.sending) {
        this.sending = true;
        queueMicrotask(() => void this.sendWaiting());
      }
    });
  }

  private async sendWaiting(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxBatch);
      try {
        await this.send({ topic: this.topic, acks: -1, messages: batch.map((waiting) => waiting.message) });
        for (const waiting of batch) waiting.resolve();
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
    this.sending = false;
  }
}
