import type { WorkerConfig } from '../config';
import { createDatabase, type Database } from '../../lib/db';
import { Secret } from '../../lib/config/secret';
import { DEFAULT_CLUSTER } from '../../lib/kafka/cluster-settings';
import { analysisOptions } from '../../lib/groups/analysis-options';
import type { ConsumerLogger } from '../shared/worker-types';
import { AlertRoundHook, type SamplerFailureStats, type SamplerRoundOutcome } from './alert-round-hook';
import { AlertSender } from './alert-sender';
import type { AlertEvaluationContext } from './record-alert-evaluation';
import { WorkerHeartbeatWriter } from './worker-heartbeat';

export interface AlertsHandle {
  /** A cluster's sampler's onRound (it runs on that cluster's leading sampler only). */
  onSamplerRound(cluster: string, outcome: SamplerRoundOutcome, stats: SamplerFailureStats): void;
  sender: AlertSender;
  /** One evaluation hook per configured cluster, by name. */
  hooks: ReadonlyMap<string, AlertRoundHook>;
  stop(): Promise<void>;
}

/** A worker whose heartbeat is older than this many sample intervals has disappeared. */
const STALE_INTERVALS = 3;

/** The evaluation of one configured cluster; the default cluster is named ALERT_CLUSTER_NAME to receivers. */
export function alertEvaluationContext(
  config: WorkerConfig,
  cluster: string = DEFAULT_CLUSTER,
): AlertEvaluationContext {
  const analysis = analysisOptions(config);
  return {
    settings: config.ALERT_SETTINGS,
    receivers: { webhook: config.ALERT_WEBHOOK_URL !== undefined, slack: config.ALERT_SLACK_WEBHOOK_URL !== undefined },
    cluster,
    clusterLabel: cluster === DEFAULT_CLUSTER ? config.ALERT_CLUSTER_NAME : cluster,
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
 * Alerts as a worker runs them: the heartbeat (every instance), one evaluation hook per configured cluster
 * (fed by that cluster's leading sampler's rounds, so each cluster is evaluated where it is sampled) and the
 * outbox sender (every instance; the row locks share the work). Evaluation and sending have their own small
 * Postgres pools, so neither can take a connection the pipeline or the sampler needs.
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
  const evaluationDb = createDatabase(config.DATABASE_URL, Math.max(3, config.clusters.length + 2));
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
  const hooks = new Map(
    config.clusters.map((cluster) => [
      cluster.name,
      new AlertRoundHook({
        db: evaluationDb,
        context: alertEvaluationContext(config, cluster.name),
        logger,
        onNotifications: () => sender.kick(),
      }),
    ]),
  );
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
    onSamplerRound: (cluster, outcome, stats) => hooks.get(cluster)?.onSamplerRound(outcome, stats),
    sender,
    hooks,
    stop: async () => {
      await heartbeat.stop();
      await Promise.all([...hooks.values()].map((hook) => hook.idle()));
      await sender.stop();
      await Promise.all([evaluationDb.$disconnect(), senderDb.$disconnect()]);
    },
  };
}
