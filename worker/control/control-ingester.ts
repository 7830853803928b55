import {
  controlTopicNames,
  decodeControlMessage,
  MAX_STATE_MESSAGE_BYTES,
  stateKey,
  ZInstanceState,
  type TInstanceState,
} from '@warden/consumer';
import type { Consumer, EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';
import type { Database } from '../../lib/db';
import type { ConsumerLogger } from '../shared/worker-types';
import { ingestInstanceState, type RecordedOutcome } from './ingest-instance-state';
import { RateLimit } from './rate-limit';
import type { MemberIdentity } from './state-rows';
import { storageProblem, withoutNul } from './state-rows';
import { isDataError } from './storage-errors';

export interface ControlIngesterOptions {
  kafka: Pick<Kafka, 'consumer'>;
  db: Database;
  /** The cluster this client reads: every row the ingester writes carries it. */
  cluster: string;
  topicPrefix: string;
  /** Names a member as the group does (describeGroups); null when the group does not list it. */
  identify?: (groupId: string, memberId: string) => Promise<MemberIdentity | null>;
  logger?: ConsumerLogger;
  /** Told of every operator_action row whose status a message set (metrics, the audit log line). */
  onRecorded?: (outcome: RecordedOutcome) => void;
  /** Backoff of a message whose write failed: doubling from `baseMs` up to `maxMs`. Default 500 ms to 30 s. */
  retry?: { baseMs: number; maxMs: number };
  /** Wait before the consumer is built again after it could not start or crashed for good. Default 10 s. */
  restartAfterMs?: number;
}

export interface ControlIngesterStats {
  ingested: number;
  /** Messages older than the instance's stored report (nothing written). */
  stale: number;
  /** Messages refused: malformed, another version, oversized, a key that is not theirs, data Postgres refuses. */
  refused: number;
  tombstones: number;
  /** Attempts to write a message that failed and were retried. */
  failedWrites: number;
}

/** At most one log line per kind of refusal or failure per minute. */
const LOG_INTERVAL_MS = 60_000;

/**
 * Reads the control plane's state topic of one cluster (`<prefix>.state`) in the consumer group
 * `<prefix>.ingest`, shared by every worker instance, so each message is ingested by one of them; one instance's
 * messages share a key, so they are ingested in order. Each message is written in its own transaction
 * (ingest-instance-state.ts) and its offset is committed only after that write.
 *
 * Failure behaviour: a message that cannot be read (malformed, another protocol version, oversized, keyed for
 * another instance) or whose data Postgres refuses is logged (rate-limited), counted and skipped; a tombstone
 * is skipped; neither stops the loop. A failed write otherwise (Postgres down) is retried with capped
 * exponential backoff, heartbeating meanwhile, until it succeeds, the partition moves to another worker (which
 * reads the message again from the last commit) or the ingester stops. A consumer that cannot start (no topic,
 * broker down) or crashes for good is built again after `restartAfterMs`; the worker goes on meanwhile.
 */
export class ControlIngester {
  readonly stats: ControlIngesterStats = { ingested: 0, stale: 0, refused: 0, tombstones: 0, failedWrites: 0 };
  private readonly rateLimit = new RateLimit(LOG_INTERVAL_MS);
  private consumer: Consumer | null = null;
  private loop: Promise<void> | null = null;
  private stopped = true;
  /** Waits that stop() ends at once. */
  private readonly waiters = new Set<() => void>();
  private readonly topic: string;
  private readonly groupId: string;

  constructor(private readonly options: ControlIngesterOptions) {
    this.topic = controlTopicNames(options.topicPrefix).state;
    this.groupId = `${options.topicPrefix}.ingest`;
  }

  /** Starts reading in the background; resolves once the consumer first runs, or after its first failure. */
  start(): Promise<void> {
    this.stopped = false;
    let firstAttempt!: () => void;
    const attempted = new Promise<void>((resolve) => (firstAttempt = resolve));
    this.loop = this.keepRunning(firstAttempt);
    return attempted;
  }

  /** Stops reading: a write in progress finishes (its offset is committed), a retry wait ends at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const wake of [...this.waiters]) wake();
    this.waiters.clear();
    await this.loop;
    this.loop = null;
  }

  private async keepRunning(firstAttempt: () => void): Promise<void> {
    while (!this.stopped) {
      const consumer = this.options.kafka.consumer({ groupId: this.groupId, allowAutoTopicCreation: false });
      let crashed!: () => void;
      const crash = new Promise<void>((resolve) => (crashed = resolve));
      consumer.on(consumer.events.CRASH, (event) => {
        if (event.payload.restart) return; // kafkajs rebuilds it itself
        this.options.logger?.warn(
          { err: event.payload.error, cluster: this.options.cluster, topic: this.topic },
          'control state ingester crashed; it starts again shortly',
        );
        crashed();
      });
      try {
        await consumer.connect();
        await consumer.subscribe({ topic: this.topic, fromBeginning: true });
        await consumer.run({ eachBatchAutoResolve: false, eachBatch: (payload) => this.eachBatch(payload) });
        this.consumer = consumer;
        firstAttempt();
        await Promise.race([crash, this.stoppedSignal()]);
      } catch (error) {
        this.options.logger?.warn(
          { err: error, cluster: this.options.cluster, topic: this.topic },
          'control state ingester could not start; it tries again shortly',
        );
        firstAttempt();
      }
      this.consumer = null;
      await consumer.disconnect().catch(() => undefined);
      if (!this.stopped) await this.sleep(this.options.restartAfterMs ?? 10_000);
    }
  }

  private async eachBatch(payload: EachBatchPayload): Promise<void> {
    const { batch, resolveOffset, heartbeat, isRunning, isStale } = payload;
    const live = () => !this.stopped && isRunning() && !isStale();
    for (const message of batch.messages) {
      if (!live()) return;
      if (!(await this.ingestWithRetry(message, live, heartbeat))) return;
      resolveOffset(message.offset);
      await heartbeat();
    }
  }

  /** True once the message is dealt with (written, stale, refused or a tombstone); false when giving it up. */
  private async ingestWithRetry(
    message: KafkaMessage,
    live: () => boolean,
    heartbeat: () => Promise<void>,
  ): Promise<boolean> {
    if (message.value === null) {
      this.stats.tombstones += 1;
      return true;
    }
    const state = this.decode(message);
    if (state === null) return true;
    const retry = this.options.retry ?? { baseMs: 500, maxMs: 30_000 };
    for (let attempt = 0; ; attempt++) {
      try {
        const result = await ingestInstanceState(
          { db: this.options.db, cluster: this.options.cluster, identify: this.options.identify },
          state,
        );
        if (result.applied) this.stats.ingested += 1;
        else this.stats.stale += 1;
        for (const outcome of result.recorded) this.recorded(outcome);
        return true;
      } catch (error) {
        if (isDataError(error)) {
          this.refuse(message, `Postgres refused its data (${messageOf(error)})`, { err: error });
          return true;
        }
        this.stats.failedWrites += 1;
        const { log, suppressed } = this.rateLimit.take('write failed');
        if (log)
          this.options.logger?.warn(
            { err: error, cluster: this.options.cluster, suppressed, attempt },
            'control state not written; retried with backoff',
          );
        const waitMs = Math.min(retry.maxMs, retry.baseMs * 2 ** Math.min(attempt, 20));
        // Heartbeats keep the partition here while Postgres is down; a wait never outlasts the session.
        for (let waited = 0; waited < waitMs; waited += 1_000) {
          if (!live()) return false;
          await this.sleep(Math.min(1_000, waitMs - waited));
          await heartbeat().catch(() => undefined);
        }
        if (!live()) return false;
      }
    }
  }

  /** The message's state, or null when it is refused (counted and logged). */
  private decode(message: KafkaMessage): TInstanceState | null {
    const decoded = decodeControlMessage(message.value, ZInstanceState, MAX_STATE_MESSAGE_BYTES);
    if (!decoded.ok) {
      this.refuse(message, decoded.reason);
      return null;
    }
    const state = withoutNul(decoded.message);
    const key = message.key?.toString() ?? null;
    const expected = stateKey(decoded.message.groupId, decoded.message.instanceId);
    if (key !== expected) {
      this.refuse(message, `keyed ${JSON.stringify(key)}, not ${JSON.stringify(expected)} as its state says`);
      return null;
    }
    const problem = storageProblem(state);
    if (problem !== null) {
      this.refuse(message, problem);
      return null;
    }
    return state;
  }

  private refuse(message: KafkaMessage, reason: string, extra: Record<string, unknown> = {}): void {
    this.stats.refused += 1;
    const { log, suppressed } = this.rateLimit.take(`refused: ${reason.slice(0, 80)}`);
    if (!log) return;
    this.options.logger?.warn(
      {
        ...extra,
        cluster: this.options.cluster,
        topic: this.topic,
        offset: message.offset,
        key: message.key?.toString('utf8').slice(0, 200) ?? null,
        reason,
        suppressed,
      },
      'control state message refused; skipped',
    );
  }

  private recorded(outcome: RecordedOutcome): void {
    this.options.logger?.info(
      {
        cluster: this.options.cluster,
        actionId: outcome.actionId.toString(),
        commandId: outcome.commandId,
        action: outcome.action,
        groupId: outcome.groupId,
        topic: outcome.topic,
        partition: outcome.partition,
        status: outcome.status,
        outcome: outcome.outcome,
      },
      'operator action',
    );
    this.options.onRecorded?.(outcome);
  }

  /** Resolves when stop() is called. */
  private stoppedSignal(): Promise<void> {
    return new Promise((resolve) => {
      if (this.stopped) return resolve();
      this.waiters.add(resolve);
    });
  }

  /** Waits `ms`, or less when stop() is called. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.stopped) return resolve();
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n').slice(-1)[0]!.slice(0, 300);
}
