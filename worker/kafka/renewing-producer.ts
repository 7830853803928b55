import type { Producer, ProducerBatch, ProducerRecord, RecordMetadata } from 'kafkajs';

// An idempotent kafkajs producer whose sequence numbers disagree with the broker's stays broken: kafkajs
// keeps the producer id and the partition's sequence, so every later send to that partition fails with
// OUT_OF_ORDER_SEQUENCE_NUMBER, and the pipeline would dead-letter valid records as permanent failures (the
// nemesis scenario in docs/decisions/0029-renewing-idempotent-producer.md). Only a new producer id cures it. This wrapper replaces the producer on those errors and rethrows them marked retriable, so the
// record retries in place and its next send goes out on the new producer. Every other error passes through
// unchanged. A send that raced the replacement and failed on the old producer is retried the same way.

/** Protocol errors after which the producer id or its sequence numbers are unusable. */
const PRODUCER_STATE_ERRORS = new Set([
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
  'UNKNOWN_PRODUCER_ID',
  'INVALID_PRODUCER_EPOCH',
]);

/** Whether `error` (or its cause) says the idempotent producer's state is lost. */
export function isProducerStateError(error: unknown, depth = 0): boolean {
  if (depth > 4 || typeof error !== 'object' || error === null) return false;
  const { type, cause } = error as { type?: unknown; cause?: unknown };
  if (typeof type === 'string' && PRODUCER_STATE_ERRORS.has(type)) return true;
  return isProducerStateError(cause, depth + 1);
}

/** The error a send rethrows after renewing the producer: retriable, the original as its cause. */
export class ProducerRenewedError extends Error {
  readonly retriable = true;
  constructor(readonly cause: unknown) {
    super(`the producer was renewed after: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'ProducerRenewedError';
  }
}

export interface RenewingProducerOptions {
  create: () => Producer;
  /** Told each renewal (for the log); never throws into the send. */
  onRenew?: (cause: unknown) => void;
}

/**
 * A Producer for the worker's sends (results and dead letters) that renews itself on a lost
 * producer state. connect/disconnect act on the current producer; a renewal disconnects the old one
 * without waiting on it, and every send first waits for the current one's connect (again, when it failed).
 */
export function createRenewingProducer(options: RenewingProducerOptions): Producer {
  let current = options.create();
  // The current producer's connect, once asked for; a renewal's connect that failed (the cluster away) is
  // tried again by the next send, since a kafkajs producer never connects by itself.
  let connecting: Promise<void> | null = null;
  let stopped = false;

  const connect = (producer: Producer): Promise<void> => {
    const attempt = producer.connect();
    connecting = attempt;
    attempt.catch(() => {
      if (connecting === attempt) connecting = null;
    });
    return attempt;
  };

  const renew = (failed: Producer, cause: unknown): void => {
    if (failed !== current || stopped) return;
    options.onRenew?.(cause);
    current = options.create();
    void failed.disconnect().catch(() => undefined);
    void connect(current).catch(() => undefined);
  };

  const guarded = async <T>(send: (producer: Producer) => Promise<T>): Promise<T> => {
    await (connecting ?? connect(current));
    const producer = current;
    try {
      return await send(producer);
    } catch (error) {
      if (!isProducerStateError(error)) throw error;
      renew(producer, error);
      throw new ProducerRenewedError(error);
    }
  };

  const delegate: Producer = {
    connect: () => connect(current),
    disconnect: async () => {
      stopped = true;
      await connecting?.catch(() => undefined);
      await current.disconnect();
    },
    isIdempotent: () => current.isIdempotent(),
    get events() {
      return current.events;
    },
    on: (...args: Parameters<Producer['on']>) => current.on(...args),
    transaction: () => current.transaction(),
    logger: () => current.logger(),
    send: (record: ProducerRecord): Promise<RecordMetadata[]> => guarded((p) => p.send(record)),
    sendBatch: (batch: ProducerBatch): Promise<RecordMetadata[]> => guarded((p) => p.sendBatch(batch)),
  };
  return delegate;
}
