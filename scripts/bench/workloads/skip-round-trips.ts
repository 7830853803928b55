import type { Kafka } from 'kafkajs';
import type { Database } from '../../../lib/db';
import { DEFAULT_CLUSTER } from '../../../lib/kafka/cluster-settings';
import { getCommand } from '../../../lib/server/get-command';
import { listQuarantines } from '../../../lib/server/list-quarantines';
import { requestOperatorAction } from '../../../lib/server/request-operator-action';
import { OperatorActionListener } from '../../../worker/control/operator-action-listener';
import { startClusterControl, type ClusterControl } from '../../../worker/control/start-control';
import { groupMemberIdentity } from '../../../worker/kafka/group-member-identity';
import { epochNowMs, type Measurement } from '../protocol';
import { roundTripPercentiles, summarizeLatency } from '../stats';
import { peakRssBytes } from './probe';

// What the two action round-trip workloads share: (12) times a skip to Warden's own consumer in this process,
// (13) to the example service running as a process of its own; both time it from the operator's request to
// what the API's reads show, the same way. This module holds Warden's side of the control plane as the worker
// wires it (worker/control/start-control.ts: the relay every COMMAND_POLL_INTERVAL_MS, woken by the NOTIFY
// listener; the state ingester), the timed rounds and the measurement they give. Each round: one record the
// consumer holds is produced to partition 0; once the hold reached Postgres (reported by the consumer, written
// by the ingester), the clock starts at the request (lib/server/request-operator-action.ts) and stops when the
// API's reads show the outcome: GET /api/commands/{id} applied and GET /api/quarantine without the card (their
// server functions, polled every 5 ms by poll-until.ts). A skip that ends failed stops the workload. Not timed:
// Next.js routing and the UI's own poll (ACTION_FOLLOW_MS, 500 ms while an action is pending), which adds at
// most its interval in the browser.

export interface ControlSide {
  /** Stops the NOTIFY listener, then the relay and the ingester. */
  stop(): Promise<void>;
}

/** Warden's side of the control plane for one group, as the worker runs it on the default cluster. */
export async function startControlSide(options: {
  kafka: Kafka;
  db: Database;
  databaseUrl: string;
  topicPrefix: string;
  pollIntervalMs: number;
  groupId: string;
}): Promise<ControlSide> {
  let control: ClusterControl | null = null;
  const listener = new OperatorActionListener({
    databaseUrl: options.databaseUrl,
    onNotify: () => control?.relay.kick(),
  });
  const started = await startClusterControl({
    cluster: DEFAULT_CLUSTER,
    kafka: options.kafka,
    db: options.db,
    topicPrefix: options.topicPrefix,
    pollIntervalMs: options.pollIntervalMs,
    expireAfterMs: 300_000,
    identify: groupMemberIdentity,
    groupIds: [options.groupId],
  });
  control = started;
  try {
    await listener.start();
  } catch (error) {
    await started.stop();
    throw error;
  }
  return {
    async stop() {
      await listener.stop();
      await started.stop();
    },
  };
}

export interface SkipRounds {
  /** Request to outcome visible through the API, per round (ms). */
  roundTrips: Float64Array;
  /** Request to the outcome recorded on the action's row (completed_at - requested_at), per round (ms). */
  applied: Float64Array;
  startEpochMs: number;
  endEpochMs: number;
}

/**
 * Runs `actions` timed skips on partition 0 of `topic` for `groupId`: `produceHeld(i)` produces a record the
 * consumer holds (it lands at offset i), `wait` polls a step (poll-until.ts `pollUntil`, with the workload's name and the
 * process it watches).
 */
export async function timeSkipRounds(options: {
  db: Database;
  groupId: string;
  topic: string;
  actions: number;
  produceHeld(i: number): Promise<unknown>;
  wait<T>(what: string, probe: () => Promise<T | undefined>): Promise<T>;
}): Promise<SkipRounds> {
  const { db, groupId, actions, wait } = options;
  const target = { cluster: DEFAULT_CLUSTER, groupId, topic: options.topic, partition: 0 };
  // The API acts only on a sampled partition; one sample is enough for a skip.
  await db.lagSample.create({
    data: {
      sampledAt: new Date(),
      ...target,
      committedOffset: 0n,
      logStartOffset: 0n,
      logEndOffset: BigInt(actions),
      lag: 0n,
      groupState: 'Stable',
    },
  });
  const roundTrips = new Float64Array(actions);
  const applied = new Float64Array(actions);
  let startEpochMs = 0;
  for (let i = 0; i < actions; i++) {
    await options.produceHeld(i);
    await wait(
      `the hold at offset ${i} reported and ingested`,
      async () => (await db.partitionQuarantine.findFirst({ where: { ...target, offset: BigInt(i) } })) ?? undefined,
    );
    if (i === 0) startEpochMs = epochNowMs();
    const started = performance.now();
    const requested = await requestOperatorAction(db, target, { action: 'skip', reason: 'bench' }, 'bench');
    await wait(`skip #${requested.id} visible through the API`, async () => {
      const [command, list] = await Promise.all([getCommand(db, requested.id), listQuarantines(db)]);
      if (command.state === 'failed' || command.state === 'failed_again')
        throw new Error(`skip #${requested.id} ended ${command.state}: ${command.message}`);
      const cardGone = !list.quarantines.some((q) => q.groupId === groupId && q.offset === String(i));
      return command.state === 'applied' && cardGone ? true : undefined;
    });
    roundTrips[i] = performance.now() - started;
    const row = await db.operatorAction.findUniqueOrThrow({ where: { id: BigInt(requested.id) } });
    applied[i] = (row.completedAt?.getTime() ?? Number.NaN) - row.requestedAt.getTime();
  }
  return { roundTrips, applied, startEpochMs, endEpochMs: epochNowMs() };
}

/** The workload's measurement: one record per skip, the round trips as its latency. */
export function skipRoundsMeasurement(
  rounds: SkipRounds,
  baselineRssBytes: number,
  details: Record<string, number | string | boolean | null>,
): Measurement {
  return {
    records: rounds.roundTrips.length,
    startEpochMs: rounds.startEpochMs,
    endEpochMs: rounds.endEpochMs,
    latency: summarizeLatency(rounds.roundTrips),
    peakRssBytes: peakRssBytes(),
    baselineRssBytes,
    partitionDoneMs: [],
    details: { ...roundTripPercentiles(rounds.roundTrips, rounds.applied), ...details },
  };
}
