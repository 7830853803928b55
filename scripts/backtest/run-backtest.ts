import type { Admin, Consumer, Kafka } from 'kafkajs';
import { caughtUpThreshold, resolvePrediction } from '../../lib/advisor/track-record';
import type { Database } from '../../lib/db';
import type { TGroupAdvice } from '../../lib/schemas/advice';
import { getGroupAdvice, type GroupAdviceOptions } from '../../lib/server/get-group-advice';
import { loadGroupRoundTotals } from '../../lib/server/load-group-round-totals';
import { ensureTopics } from '../../worker/kafka/topics';
import { eventually } from '../../test-support/eventually';
import { uniqueName } from '../../test-support/unique-name';
import type { ScenarioName } from './cli-args';
import { drainComponents, type DrainComponents, type HandledRecord } from './drain-components';
import type { BacktestRow, ScenarioKind } from './verdict';

// Backtests the capacity advice on the real broker: a backlog, one consumer whose handler simulates an
// I/O-bound store call, the advice read back through the same function the advice endpoint calls, then the
// recommended consumers started and the real time until the lag is under the plan's threshold measured from
// the sampler's own rounds in Postgres.
//
// The consumers are plain kafkajs consumers in this process, each handling one record at a time (a
// Java-style poll loop): the advisor's model of one consumer = one processing rate. The simulated store
// sleeps per record and may enforce one rate limit shared by every consumer.

export interface BacktestOptions {
  kafka: Kafka;
  admin: Admin;
  db: Database;
  /** Group ids start with this; the sampler samples only them. */
  groupPrefix: string;
  advice: Omit<GroupAdviceOptions, 'targetCatchUpSec'>;
  /** Scenarios to run, in BACKTEST_SCENARIOS order; each is run `repeat` times. */
  only: readonly ScenarioName[];
  repeat: number;
  log: (line: string) => void;
}

interface ScenarioSpec {
  name: ScenarioName;
  partitions: number;
  /** Records waiting per partition before the first consumer starts. */
  backlog: number[];
  perRecordMs: number;
  /** Records per second the store accepts from all consumers together; null: no shared limit. */
  sharedLimitPerSec: number | null;
  /**
   * The target is set from the first plan's what-if curve: this factor times the catch-up with one consumer
   * per partition. Just above 1 asks for the count that drains fastest (a real scale-out to check); below 1 is
   * a target no count meets. The backtest checks the promise, not the choice of target.
   */
  targetFactor: number;
}

// Sizes: each judged drain lasts about a minute, so the sampler's 1 s rounds, the commit interval and a
// scale-out's rebalance pause are a few percent of T, not a tenth of it. 40 ms a record keeps the handler
// I/O-bound on a loaded machine: at 10 ms, with the load average at 20 on two cores, a record took 12-18 ms
// (timers fire late when the process waits for a core), so the rate moved with the load by 10-20% between
// the plan's rate window and the drain; the same few milliseconds are under a tenth of 40.
export const BACKTEST_SCENARIOS: readonly ScenarioSpec[] = [
  {
    name: 'io-bound',
    partitions: 4,
    backlog: [1_500, 1_500, 1_500, 1_500],
    perRecordMs: 40,
    sharedLimitPerSec: null,
    targetFactor: 1.05,
  },
  {
    name: 'hot-partition',
    partitions: 4,
    backlog: [1_500, 75, 75, 75],
    perRecordMs: 40,
    sharedLimitPerSec: null,
    targetFactor: 0.5,
  },
  {
    name: 'shared-limit',
    partitions: 4,
    backlog: [1_500, 1_500, 1_500, 1_500],
    perRecordMs: 3,
    sharedLimitPerSec: 100,
    targetFactor: 1.05,
  },
];

/** The rate window (20 s, main.ts) plus a few rounds. */
const WARM_UP_MS = 24_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** The simulated downstream: a fixed time per call, and optionally one rate limit for all callers. */
class SimulatedStore {
  private nextSlotMs = 0;
  constructor(
    private readonly perRecordMs: number,
    private readonly sharedLimitPerSec: number | null,
  ) {}

  async write(): Promise<void> {
    if (this.sharedLimitPerSec === null) {
      await sleep(this.perRecordMs);
      return;
    }
    // The call takes its own time or waits for its slot under the limit, whichever is longer: the limit
    // binds from the first consumer on, so more consumers can only queue for the same slots.
    const now = Date.now();
    const slot = Math.max(now, this.nextSlotMs);
    this.nextSlotMs = slot + 1000 / this.sharedLimitPerSec;
    await sleep(Math.max(slot - now, this.perRecordMs));
  }
}

export async function runBacktest(options: BacktestOptions): Promise<BacktestRow[]> {
  const rows: BacktestRow[] = [];
  for (let run = 1; run <= options.repeat; run += 1) {
    for (const spec of BACKTEST_SCENARIOS.filter((s) => options.only.includes(s.name))) {
      const scenarioRows = await runScenario(spec, options);
      for (const row of scenarioRows) {
        options.log(
          `backtest ${row.scenario} [run ${run}/${options.repeat}]: predicted ${seconds(row.predictedSec)}, ` +
            `measured ${seconds(row.measuredSec)}${row.components ? `; ${describeComponents(row.components)}` : ''}`,
        );
      }
      rows.push(...scenarioRows);
    }
  }
  return rows;
}

const seconds = (sec: number | null | undefined) => (sec == null ? 'never' : `${sec.toFixed(1)} s`);

function describeComponents(c: DrainComponents): string {
  const partitions = [...c.drainSecByPartition].map(([p, sec]) => `p${p} ${seconds(sec)}`).join(', ');
  const rate = c.medianConsumerRatePerSec === null ? '—' : `${c.medianConsumerRatePerSec.toFixed(1)}/s`;
  return (
    `advice age ${seconds(c.adviceAgeSec)}, first record of a new consumer ${seconds(c.joinSec)} after the ` +
    `scale-out, longest pause ${seconds(c.longestPauseSec)}, handler drained in ${seconds(c.handlerDrainSec)} ` +
    `(${partitions}), median consumer rate after ${rate}`
  );
}

async function runScenario(spec: ScenarioSpec, options: BacktestOptions): Promise<BacktestRow[]> {
  const { kafka, admin, db, log } = options;
  const topic = uniqueName(`${options.groupPrefix}${spec.name}-in`);
  const groupId = uniqueName(`${options.groupPrefix}${spec.name}`);
  const store = new SimulatedStore(spec.perRecordMs, spec.sharedLimitPerSec);
  const consumers: Consumer[] = [];
  const handled: HandledRecord[] = [];
  log(`backtest ${spec.name}: ${spec.backlog.join('+')} records on ${spec.partitions} partitions`);
  // A topic created a moment ago may answer metadata with "does not host this topic-partition" before its
  // leaders settle (seen on Kafka 4.1): retried; a second call finds the topic and returns.
  await eventually(`topic ${topic}`, async () => {
    await ensureTopics(admin, [{ topic, numPartitions: spec.partitions }]);
    return true;
  });
  await eventually(`leaders for ${topic}`, async () => {
    const [metadata] = (await admin.fetchTopicMetadata({ topics: [topic] })).topics;
    return metadata?.partitions.length === spec.partitions && metadata.partitions.every((p) => p.leader >= 0)
      ? true
      : undefined;
  });
  await produceBacklog(kafka, topic, spec.backlog);
  // Offsets committed at 0 before any consumer runs: the sampler knows every partition's backlog from its
  // first round. A partition never committed has an unknown backlog, which the plan counts as 0 and the
  // first consumer's uneven drain leaves that way for tens of seconds.
  await admin.setOffsets({
    groupId,
    topic,
    partitions: spec.backlog.map((_, partition) => ({ partition, offset: '0' })),
  });

  const startConsumer = async () => {
    const consumer = kafka.consumer({
      groupId,
      heartbeatInterval: 500,
      sessionTimeout: 10_000,
      // 64 KiB a partition (about 1,500 records, a minute of work): a fetch's round trip is small against
      // the work it brings whether a consumer reads one partition or four, so the rate measured on the single
      // consumer holds for each one after the scale-out. A rebalance does not wait for the batch: kafkajs's
      // heartbeat between records sees it and drops the rest of the batch.
      maxBytesPerPartition: 65_536,
    });
    const index = consumers.length;
    consumers.push(consumer);
    await consumer.connect();
    // Metadata of a topic created a moment ago may still be settling on the broker: retried.
    await eventually(`subscription to ${topic}`, async () => {
      await consumer.subscribe({ topic, fromBeginning: true });
      return true;
    });
    await consumer.run({
      autoCommitInterval: 500,
      eachMessage: async ({ partition, message }) => {
        await store.write();
        handled.push({ consumer: index, partition, offset: Number(message.offset), atMs: Date.now() });
      },
    });
  };

  try {
    await startConsumer();
    // A full rate window of steady work before the first reading: the first seconds of a consumer (its join,
    // its first fetches) are not its rate.
    await sleep(WARM_UP_MS);
    const measured = (a: TGroupAdvice) =>
      a.planState === 'planned' &&
      !a.perConsumerRate.isLowerBound &&
      a.plan?.catchUpSec != null &&
      a.partitions.every((p) => p.backlog !== null);
    const probe = await waitForAdvice(db, groupId, { ...options.advice, targetCatchUpSec: 3_600 }, measured, 90_000);
    const curve = probe.plan!.catchUpSecByConsumers;
    const adviceOptions: GroupAdviceOptions = {
      ...options.advice,
      targetCatchUpSec: spec.targetFactor * (curve[curve.length - 1]?.catchUpSec ?? 0),
    };
    const first = await waitForAdvice(db, groupId, adviceOptions, measured, 10_000);
    const plan = first.plan!;
    log(
      `backtest ${spec.name}: advice "${plan.summary}" (one consumer ${first.perConsumerRate.ratePerSec?.toFixed(1)}/s, ` +
        `backlog ${first.partitions.map((p) => p.backlog).join('+')})`,
    );
    // Every recommended consumer joins at once: one rebalance, not one per member.
    const consumersBefore = consumers.length;
    const scaleOutAtMs = Date.now();
    await Promise.all(Array.from({ length: Math.max(0, plan.recommendedConsumers - consumers.length) }, startConsumer));
    const lastOffsets = spec.backlog.map((count, partition) => [partition, count - 1] as const);
    // The sampled catch-up ends at the plan's threshold, before the last records: the handler's own drain
    // end is waited for (a minute at most) so the components say where the rest of the time went.
    const components = async () => {
      await eventually(
        `the last backlog records of ${topic}`,
        async () =>
          lastOffsets.every(([partition, offset]) =>
            handled.some((r) => r.partition === partition && r.offset === offset),
          )
            ? true
            : undefined,
        60_000,
      ).catch(() => undefined);
      return drainComponents({
        handled,
        sampledAtMs: Date.parse(first.sampledAt),
        scaleOutAtMs,
        consumersBefore,
        lastOffsetByPartition: new Map(lastOffsets),
      });
    };
    const firstRow = (measuredSec: number | null): BacktestRow => ({
      scenario: (spec.name === 'shared-limit' ? 'shared-limit-first-plan' : spec.name) as ScenarioKind,
      consumersThen: first.consumers,
      recommended: plan.recommendedConsumers,
      predictedSec: plan.catchUpSec,
      measuredSec,
      requiredStatement: spec.name === 'hot-partition' ? plan.noGainBeyond !== null : true,
      summary: plan.summary,
    });
    if (spec.name !== 'shared-limit') {
      const measured = await measureCatchUp(db, groupId, first, limitSec(plan.catchUpSec));
      return [{ ...firstRow(measured), components: await components() }];
    }

    // The shared limit: once the advisor has seen the scale-out, its next plan must be one it can keep.
    const seen = await waitForAdvice(
      db,
      groupId,
      adviceOptions,
      (a) => a.scaling.basis === 'measured' && a.plan !== null,
      90_000,
    );
    const second = seen.plan!;
    log(
      `backtest ${spec.name}: after the scale-out "${second.summary}" (${seen.consumers} consumers, one consumer ` +
        `${seen.perConsumerRate.ratePerSec?.toFixed(1)}/s: ${seen.perConsumerRate.basis}; per partition backlog/committed ` +
        `${seen.partitions.map((p) => `p${p.partition} ${p.backlog}/${p.consumptionRatePerSec?.toFixed(1)}/s${p.hadBacklogThroughout ? '' : ' (ran out)'}`).join(', ')}; ` +
        `advice age ${((Date.now() - Date.parse(seen.sampledAt)) / 1000).toFixed(1)} s, scale-out ${((Date.parse(seen.sampledAt) - scaleOutAtMs) / 1000).toFixed(1)} s before its sample)`,
    );
    const [firstMeasured, secondMeasured] = await Promise.all([
      measureCatchUp(db, groupId, first, limitSec(plan.catchUpSec) + 120),
      measureCatchUp(db, groupId, seen, limitSec(second.catchUpSec)),
    ]);
    return [
      { ...firstRow(firstMeasured), components: await components() },
      {
        scenario: 'shared-limit-after-scale-out',
        consumersThen: seen.consumers,
        // Judged at the count that keeps running: its point on the plan's curve is what the plan promises for it.
        recommended: seen.consumers,
        predictedSec:
          second.catchUpSecByConsumers.find((p) => p.consumers === seen.consumers)?.catchUpSec ?? second.catchUpSec,
        measuredSec: secondMeasured,
        requiredStatement: seen.scaling.basis === 'measured' && second.summary.includes('Scaling measured'),
        summary: second.summary,
      },
    ];
  } finally {
    await Promise.all(consumers.map((c) => c.disconnect()));
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
  }
}

/** How long a scenario waits for the catch-up: three times the promise, at least a minute. */
const limitSec = (predictedSec: number | null) => Math.max(60, 3 * (predictedSec ?? 60));

async function produceBacklog(kafka: Kafka, topic: string, backlog: readonly number[]): Promise<void> {
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    for (const [partition, count] of backlog.entries()) {
      // 100 records a request: a fetch returns whole record batches, so with 500 a consumer would work
      // through 5 s of one partition before it touched the next.
      for (let from = 0; from < count; from += 100) {
        const messages = Array.from({ length: Math.min(100, count - from) }, (_, i) => ({
          partition,
          key: `k${partition}`,
          value: `record ${partition}-${from + i}`,
        }));
        // A new topic's partitions may still be moving to their leader: retried until accepted.
        await eventually(`${topic}-${partition} accepting records`, async () => {
          await producer.send({ topic, acks: -1, messages });
          return true;
        });
      }
    }
  } finally {
    await producer.disconnect();
  }
}

async function waitForAdvice(
  db: Database,
  groupId: string,
  options: GroupAdviceOptions,
  ready: (advice: TGroupAdvice) => boolean,
  timeoutMs: number,
): Promise<TGroupAdvice> {
  const deadline = Date.now() + timeoutMs;
  let last: TGroupAdvice | null = null;
  let lastError: unknown = null;
  while (Date.now() < deadline) {
    try {
      last = await getGroupAdvice(db, 'default', groupId, options);
      if (ready(last)) return last;
    } catch (error) {
      lastError = error; // not sampled yet
    }
    await sleep(1_000);
  }
  throw new Error(
    `no usable advice for ${groupId} within ${timeoutMs / 1000} s; last: ${last ? `${last.planState} ${last.planUnavailableReason ?? last.plan?.summary ?? ''}` : String(lastError)}`,
  );
}

/**
 * Seconds from the advice's sample time to the first sampler round with the group's lag at or under the
 * plan's threshold (lib/advisor/track-record.ts, the rule the card's track record uses); null when that
 * does not happen within `limitSec`.
 */
async function measureCatchUp(
  db: Database,
  groupId: string,
  advice: TGroupAdvice,
  limit: number,
): Promise<number | null> {
  const fromMs = Date.parse(advice.sampledAt);
  const backlog = advice.partitions.reduce((sum, p) => sum + (p.backlog ?? 0), 0);
  const prediction = {
    predictedAtMs: fromMs,
    consumersThen: advice.consumers,
    predictedConsumers: advice.plan?.recommendedConsumers ?? advice.consumers,
    predictedCatchUpSec: advice.plan?.catchUpSec ?? null,
    backlog,
    thresholdLag: caughtUpThreshold({
      partitions: advice.partitions.length,
      backlog,
      arrivalRatePerSec: advice.partitions.reduce((sum, p) => sum + (p.arrivalRatePerSec ?? 0), 0),
    }),
  };
  while (Date.now() < fromMs + limit * 1000) {
    const rounds = await loadGroupRoundTotals(db, 'default', groupId, { fromMs, toMs: Date.now() });
    const outcome = resolvePrediction(prediction, rounds, Date.now());
    if (outcome.status === 'caught-up') return outcome.actualCatchUpSec;
    await sleep(1_000);
  }
  return null;
}
