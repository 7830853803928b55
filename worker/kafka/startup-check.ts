import type { Admin } from 'kafkajs';
import type { KafkaSecuritySettings } from '../../lib/kafka/security';
import { classifyStartupError, type StartupSecurityContext, type StartupVerdict } from './classify-startup-error';
import { createKafka, type KafkaClientOptions } from '../../lib/kafka/client';
import { backoffCeilingMs, type BackoffPolicy } from '@warden/consumer';

/** Waits between start-up attempts, without jitter: 250 ms, doubling, at most 5 s. */
const STARTUP_BACKOFF: BackoffPolicy = { baseMs: 250, maxMs: 5_000 };

/** The start-up check failed for a reason an operator must fix; the message names the setting. */
export class KafkaStartupError extends Error {
  constructor(
    message: string,
    readonly settings: string[],
  ) {
    super(message);
    this.name = 'KafkaStartupError';
  }
}

export interface StartupCheckLogger {
  warn(fields: object, message: string): void;
}

export interface StartupCheckOptions {
  /** The same brokers, client id and TLS/SASL options the worker's clients use. */
  client: KafkaClientOptions;
  context: StartupSecurityContext;
  /** Retriable failures (cluster not up yet) are retried until this long after the first attempt. Default 30 s. */
  deadlineMs?: number;
  logger?: StartupCheckLogger;
  /** Strings (the password) replaced by [redacted] in anything this throws or logs, as a second guard. */
  secrets?: string[];
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** One attempt; replaced in unit tests. Default: connect and describe the cluster, then each broker. */
  probe?: (client: KafkaClientOptions) => Promise<{ clusterId: string; brokers: number }>;
}

/** Identical 'briefly' verdicts in a row before they count as a configuration problem. */
const BRIEF_ATTEMPTS = 3;

/** What the classifier may know about the configuration: brokers, file paths, mechanism and user, no secrets. */
export function startupContextFrom(config: {
  kafkaBrokers: string[];
  kafkaSecurity: KafkaSecuritySettings;
}): StartupSecurityContext {
  const { tls, sasl } = config.kafkaSecurity;
  return {
    brokers: config.kafkaBrokers,
    tls: tls ? { caFile: tls.caFile, certFile: tls.certFile } : null,
    sasl: sasl ? { mechanism: sasl.mechanism, username: sasl.username } : null,
  };
}

/**
 * Connects to the cluster the way every worker client will (TLS, SASL), reads its description, then
 * connects to each broker it advertises (their certificates and listeners can differ from the bootstrap
 * address's). Resolves with the cluster id and broker count.
 *
 * Failure behaviour: wrong credentials, an untrusted or refused certificate, or a listener of another
 * security protocol throw a KafkaStartupError at once (or after three identical attempts, for a closed
 * connection) naming the setting to fix; an unreachable cluster is retried, with a warning per attempt,
 * until `deadlineMs`, then throws too. It never loops silently and never logs a secret.
 */
export async function checkKafkaAtStartup(
  options: StartupCheckOptions,
): Promise<{ clusterId: string; brokers: number }> {
  const deadlineMs = options.deadlineMs ?? 30_000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const redact = (text: string) =>
    (options.secrets ?? []).filter((s) => s.length > 0).reduce((t, s) => t.split(s).join('[redacted]'), text);
  const now = options.now ?? Date.now;
  const started = now();
  let previous: StartupVerdict | null = null;
  let repeats = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      return await (options.probe ?? probeCluster)(options.client);
    } catch (error) {
      const verdict = classifyStartupError(error, options.context);
      repeats = previous?.message === verdict.message ? repeats + 1 : 1;
      previous = verdict;
      const waitMs = backoffCeilingMs(attempt, STARTUP_BACKOFF);
      const outOfTime = now() - started + waitMs > deadlineMs;
      if (verdict.retry === 'never' || (verdict.retry === 'briefly' && repeats >= BRIEF_ATTEMPTS) || outOfTime) {
        throw new KafkaStartupError(redact(verdict.message), verdict.settings);
      }
      options.logger?.warn(
        { attempt, settings: verdict.settings, retryInMs: waitMs },
        redact(`Kafka start-up check failed, retrying: ${verdict.message}`),
      );
      await sleep(waitMs);
    }
  }
}

/** One attempt with clients that do not retry by themselves (the loop above decides), silent (it reports). */
async function probeCluster(client: KafkaClientOptions): Promise<{ clusterId: string; brokers: number }> {
  const description = await withAdmin(client, (admin) => admin.describeCluster());
  await Promise.all(
    description.brokers.map((b) => withAdmin({ ...client, brokers: [`${b.host}:${b.port}`] }, () => Promise.resolve())),
  );
  return { clusterId: description.clusterId, brokers: description.brokers.length };
}

async function withAdmin<T>(client: KafkaClientOptions, use: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = createKafka({ ...client, logLevel: 'nothing', retries: 0 }).admin();
  try {
    await admin.connect();
    return await use(admin);
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
