import type { WorkerConfig } from '../../lib/config';
import { createDatabase, type Database } from '../../lib/db';
import { Secret } from '../../lib/kafka/security';
import { analysisOptions } from '../../lib/server/analysis-options';
import type { RoundOutcome, SamplerStats } from '../sampler/lag-sampler';
import type { ConsumerLogger } from '../shared/worker-types';
import { AlertRoundHook } from './alert-round-hook';
import { AlertSender } from './alert-sender';
import type { AlertEvaluationContext } from './record-alert-evaluation';
import { WorkerHeartbeatWriter } from './worker-heartbeat';

export interface AlertsHandle {
  /** The sampler's onRound (it runs on the leading sampler only). */
  onSamplerRound(outcome: RoundOutcome, stats: SamplerStats): void;
  sender: AlertSender;
  hook: AlertRoundHook;
  stop(): Promise<void>;
}

/** A worker whose heartbeat is older than this many sample intervals has disappeared. */
const STALE_INTERVALS = 3;

export function alertEvaluationContext(config: WorkerConfig): AlertEvaluationContext {
  const analysis = analysisOptions(config);
  return {
    settings: config.ALERT_SETTINGS,
    receivers: { webhook: config.ALERT_WEBHOOK_URL !== undefined, slack: config.ALERT_SLACK_WEBHOOK_URL !== undefined },
    cluster: config.ALERT_CLUSTER_NAME,
    dashboardUrl: config.ALERT_DASHBOARD_URL,
    timeLagObjectiveMs: analysis.timeLagObjectiveMs,
    rateWindowMs: analysis.rateWindowMs,
    workerStaleAfterMs: Math.max(STALE_INTERVALS * config.SAMPLE_INTERVAL_MS, 15_000),
  };
}

export function alertReceivers(config: WorkerConfig): Map<string, Secret> {
  const receivers = new Map<string, Secret>();
  if (config.ALERT_WEBHOOK_URL !== undefined) receivers.set('webhook', new Secret(config.ALERT_WEBHOOK_URL));
  if (config.ALERT_SLACK_WEBHOOK_URL !== undefined) receivers.set('slack', config.ALERT_SLACK_WEBHOOK_URL);
  return receivers;
}

/**
 * Alerts as a worker runs them: the heartbeat (every instance), the evaluation hook (fed by the leading
 * sampler's rounds) and the outbox sender (every instance; the row locks share the work). Evaluation and
 * sending have their own small Postgres pools, so neither can take a connection the pipeline or the sampler
 * needs.
 */
export function startAlerts(options: {
  config: WorkerConfig;
  db: Database;
  instanceId: string;
  readiness: () => { ready: boolean; detail: string };
  logger?: ConsumerLogger;
}): AlertsHandle {
  const { config, logger } = options;
  const concurrency = 4;
  const evaluationDb = createDatabase(config.DATABASE_URL, 3);
  const senderDb = createDatabase(config.DATABASE_URL, concurrency + 1);
  const sender = new AlertSender({
    db: senderDb,
    receivers: alertReceivers(config),
    signingSecret: config.ALERT_WEBHOOK_SECRET ?? null,
    maxAttempts: config.ALERT_DELIVERY_MAX_ATTEMPTS,
    timeoutMs: config.ALERT_DELIVERY_TIMEOUT_MS,
    backoff: { baseMs: config.ALERT_DELIVERY_BACKOFF_BASE_MS, maxMs: config.ALERT_DELIVERY_BACKOFF_MAX_MS },
    instanceId: options.instanceId,
    concurrency,
    logger,
  });
  const hook = new AlertRoundHook({
    db: evaluationDb,
    context: alertEvaluationContext(config),
    logger,
    onNotifications: () => sender.kick(),
  });
  const heartbeat = new WorkerHeartbeatWriter({
    db: options.db,
    instanceId: options.instanceId,
    groupId: config.WARDEN_GROUP_ID,
    intervalMs: config.SAMPLE_INTERVAL_MS,
    readiness: options.readiness,
    logger,
  });
  sender.start();
  heartbeat.start();
  return {
    onSamplerRound: (outcome, stats) => hook.onSamplerRound(outcome, stats),
    sender,
    hook,
    stop: async () => {
      await heartbeat.stop();
      await hook.idle();
      await sender.stop();
      await Promise.all([evaluationDb.$disconnect(), senderDb.$disconnect()]);
    },
  };
}
