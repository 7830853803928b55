import type { Database } from '../../lib/db';
import { SIGNATURE_HEADER, signBody } from '../../lib/alerts/alert-payload';
import type { Secret } from '../../lib/config/secret';
import { backoffCeilingMs, backoffDelayMs, type BackoffPolicy } from '@warden/consumer';
import { PeriodicTask } from '../periodic-task';
import type { ConsumerLogger } from '../shared/worker-types';

export interface AlertSenderOptions {
  db: Database;
  /** Receiver name ('webhook', 'slack') to its URL; a URL is a secret (Slack's holds its token): never logged. */
  receivers: ReadonlyMap<string, Secret>;
  signingSecret: Secret | null;
  maxAttempts: number;
  timeoutMs: number;
  backoff: BackoffPolicy;
  instanceId: string;
  /** How often the sender looks for due notifications (kick() also wakes it). Default 1 s. */
  pollIntervalMs?: number;
  /** Deliveries in flight at once, each holding one row lock and one connection. Default 4. */
  concurrency?: number;
  logger?: ConsumerLogger;
  now?: () => number;
  random?: () => number;
}

type AttemptOutcome = { statusCode: number | null; error: string | null; delivered: boolean; retriable: boolean };

/**
 * Delivers the outbox. Each delivery claims one due row with `FOR UPDATE SKIP LOCKED` and holds that row lock
 * until the attempt is recorded, so across any number of worker instances one sender handles a notification
 * at a time, and a sender killed mid-attempt releases the row with its connection (the next sender retries
 * it: at-least-once; receivers deduplicate on the notification id). Every attempt is recorded (status code,
 * error, duration). 2xx delivers; 408, 425, 429, 5xx, timeouts and network errors retry with exponential
 * backoff and equal jitter (at least half of each ceiling, so the retries' minimum span is known: with the
 * defaults over 13 minutes, longer than a 10-minute receiver outage) up to maxAttempts; any other 4xx is a receiver refusing the message and fails at
 * once. A row ends `failed` with the last error. The sender runs on its own pool and loop: a slow or dead
 * receiver never touches the sampler or the consumer.
 */
/** The least time between a notification's first and last attempt: equal jitter waits at least half a ceiling. */
export function minimumRetrySpanMs(maxAttempts: number, backoff: BackoffPolicy): number {
  let total = 0;
  for (let attempt = 1; attempt < maxAttempts; attempt++) total += Math.ceil(backoffCeilingMs(attempt, backoff) / 2);
  return total;
}

export class AlertSender {
  private readonly loop: PeriodicTask;
  private readonly now: () => number;
  private readonly random: () => number;

  constructor(private readonly options: AlertSenderOptions) {
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.loop = new PeriodicTask(() => this.deliverDue().then(() => undefined), {
      intervalMs: options.pollIntervalMs ?? 1_000,
      onError: (error) => options.logger?.warn({ err: error }, 'alert sender round failed; retried next interval'),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Looks for due notifications now (after an evaluation wrote some). */
  kick(): void {
    this.loop.kick();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** Delivers every due notification; returns how many attempts were made. */
  async deliverDue(): Promise<number> {
    // One cheap indexed read while nothing is due, instead of a transaction per lane every poll.
    const due = await this.options.db.alertNotification.findFirst({
      where: { status: 'pending', nextAttemptAt: { lte: new Date(this.now()) } },
      select: { id: true },
    });
    if (!due) return 0;
    let attempts = 0;
    const lane = async () => {
      while (await this.deliverOne()) attempts += 1;
    };
    await Promise.all(Array.from({ length: this.options.concurrency ?? 4 }, lane));
    return attempts;
  }

  /** One attempt on one due notification; false when none is due (or all are claimed by other senders). */
  async deliverOne(): Promise<boolean> {
    const { db, timeoutMs } = this.options;
    return db.$transaction(
      async (tx) => {
        const [row] = await tx.$queryRaw<Array<{ id: bigint; receiver: string; body: string; attempts: number }>>`
          SELECT id, receiver, body, attempts FROM alert_notification
          WHERE status = 'pending' AND next_attempt_at <= ${new Date(this.now())}
          ORDER BY next_attempt_at, id
          LIMIT 1
          FOR UPDATE SKIP LOCKED`;
        if (!row) return false;
        const attempt = row.attempts + 1;
        const startedMs = this.now();
        const url = this.options.receivers.get(row.receiver);
        const outcome: AttemptOutcome = url
          ? await this.post(url, row)
          : {
              statusCode: null,
              error: `receiver "${row.receiver}" is not configured`,
              delivered: false,
              retriable: false,
            };
        const durationMs = Math.max(0, Math.round(this.now() - startedMs));
        const final = outcome.delivered || !outcome.retriable || attempt >= this.options.maxAttempts;
        const status = outcome.delivered ? 'delivered' : final ? 'failed' : 'pending';
        await tx.alertDelivery.create({
          data: {
            notificationId: row.id,
            attempt,
            startedAt: new Date(startedMs),
            durationMs,
            statusCode: outcome.statusCode,
            error: outcome.error,
            outcome: outcome.delivered ? 'delivered' : final ? 'failed' : 'retry',
            instanceId: this.options.instanceId,
          },
        });
        await tx.alertNotification.update({
          where: { id: row.id },
          data: {
            attempts: attempt,
            status,
            deliveredAt: outcome.delivered ? new Date(this.now()) : null,
            lastError: outcome.error,
            nextAttemptAt: new Date(
              final ? this.now() : this.now() + backoffDelayMs(attempt, this.options.backoff, this.random, 'equal'),
            ),
          },
        });
        if (status === 'failed') {
          this.options.logger?.warn(
            { notificationId: row.id.toString(), receiver: row.receiver, attempts: attempt, error: outcome.error },
            'alert notification failed for good',
          );
        }
        return true;
      },
      { timeout: timeoutMs + 15_000, maxWait: 10_000 },
    );
  }

  private async post(url: Secret, row: { id: bigint; body: string }): Promise<AttemptOutcome> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'warden-alerts/1',
      'x-warden-notification': row.id.toString(),
    };
    const secret = this.options.signingSecret;
    if (secret) headers[SIGNATURE_HEADER] = signBody(row.body, secret.reveal());
    try {
      const response = await fetch(url.reveal(), {
        method: 'POST',
        headers,
        body: row.body,
        redirect: 'error',
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      // The body is read (bounded) only to free the connection and to say why a receiver refused.
      const text = (await response.text().catch(() => '')).slice(0, 300);
      if (response.ok) return { statusCode: response.status, error: null, delivered: true, retriable: false };
      const retriable = response.status >= 500 || [408, 425, 429].includes(response.status);
      return {
        statusCode: response.status,
        error: scrub(`HTTP ${response.status}${text ? `: ${text}` : ''}`, url),
        delivered: false,
        retriable,
      };
    } catch (error) {
      return {
        statusCode: null,
        error: scrub(describeFetchError(error, this.options.timeoutMs), url),
        delivered: false,
        retriable: true,
      };
    }
  }
}

function describeFetchError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `no answer within ${timeoutMs} ms`;
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  if (cause?.code) return `${cause.code}: ${cause.message ?? ''}`.trim();
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** A receiver URL may carry its token (Slack's does): never let it reach a row or a log line. */
function scrub(text: string, url: Secret): string {
  return text.split(url.reveal()).join('[receiver url]');
}
