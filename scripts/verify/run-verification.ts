import { readFileSync } from 'node:fs';
import type { Admin, Kafka } from 'kafkajs';
import type { Database } from '../../lib/db';
import { ensureTopics } from '../../worker/kafka/topics';
import { startLocalBroker, stopLocalBroker, type LocalBrokerOptions } from '../lib/broker';
import { CLUSTER_NODES, type ClusterNode, type LocalCluster } from '../lib/cluster';
import { eventually } from '../../test-support/eventually';
import { uniqueName } from '../../test-support/unique-name';
import { WorkerProcess } from '../lib/worker-process';
import { observe, readWholeTopic } from './observe';
import { ContinuousProducer } from './continuous-producer';
import { encodeRecord, planRecords, type PlannedRecord, type PlanOptions } from './records';
import {
  describeAction,
  describeSchedule,
  nemesisSteps,
  oneNodeUp,
  planNemesis,
  rssSlopeMiBPerMinute,
  runSchedule,
  type NemesisStep,
  type RssSample,
} from './nemesis';
import { longestStops, type FaultMark, type FaultStall, type ProgressSample } from './stalls';
import { TcpProxy } from './tcp-proxy';
import { judge, passes, type Observation, type ProducedRecord, type Verdict } from './verdict';

// Runs fault scenarios against real worker processes (the same worker `npm run worker` starts) and judges
// what they did: nothing lost, per-key order kept, no record silently dropped, no commit past unfinished
// work, checked after every fault and at the end.

export const SCENARIOS = [
  'steady',
  'kill9',
  'rebalance',
  'broker-restart',
  'db-outage',
  'keys1000',
  'isolation',
] as const;
/** The failover scenarios, run on the three-node cluster (`--cluster 3`). */
export const CLUSTER_SCENARIOS = [
  'leader-kill',
  'results-leader-kill',
  'rolling-restart',
  'controller-kill',
  'below-min-isr',
  'coordinator-kill',
  'slow-broker',
] as const;
export type ScenarioName = (typeof SCENARIOS)[number] | (typeof CLUSTER_SCENARIOS)[number] | 'nemesis';

export interface VerifyOptions {
  kafka: Kafka;
  admin: Admin;
  db: Database;
  databaseUrl: string;
  /** The brokers the worker processes connect to (the ones `kafka` reaches). */
  brokers: readonly string[];
  /** Only when the broker was started here can the broker-restart scenario restart it. */
  localBroker: LocalBrokerOptions | null;
  /** The three-node cluster the workers run on (`--cluster 3`); the cluster scenarios need it. */
  cluster?: LocalCluster | null;
  scenarios: ScenarioName[];
  /** The nemesis's schedule: a seed (printed, so a failure replays) and how long faults are drawn for. */
  nemesis?: { seed: number; durationMs: number };
  records: number;
  keys: number;
  partitions: number;
  transientRate: number;
  /** The workers' ordering mode; per-key order is asserted in 'key' and 'partition' modes. */
  ordering: 'partition' | 'key' | 'unordered';
  maxLatencyMs: number;
  poisonShare: number;
  malformedShare: number;
  ignoredShare: number;
  firstWorkerPort: number;
  log: (line: string) => void;
}

export interface ScenarioReport {
  /** A verify scenario, or `soak` when npm run soak reports its traffic in the same table. */
  scenario: ScenarioName | 'soak';
  passed: boolean;
  seconds: number;
  verdict: Verdict;
  checkpoints: Array<{ after: string; commitViolations: number }>;
  /** Per fault: when it happened and the longest stop in processing in its window. */
  faults: FaultStall[];
  notes: string[];
}

interface ScenarioContext {
  /** Starts worker `index` and waits until it is ready, unless `waitReady` is false. */
  startWorker(index: number, waitReady?: boolean): Promise<void>;
  stopWorker(index: number, signal: NodeJS.Signals): Promise<void>;
  progress(fraction: number): Promise<void>;
  checkpoint(after: string): Promise<void>;
  /**
   * Marks a fault (for its longest stop in processing), injects it, then checks commits after it unless
   * `checkpoint` is false (while the cluster cannot serve the checker's reads: two of three nodes down).
   */
  fault(name: string, inject: () => Promise<void>, options?: { checkpoint: boolean }): Promise<void>;
  /** Polls every worker's /readyz until `until` resolves; whether any was seen not ready, and the first detail. */
  watchReadiness(until: Promise<unknown>): Promise<{ sawNotReady: boolean; notReadyDetail: string | null }>;
  /** Waits until every running worker reports ready. */
  workersReady(timeoutMs: number): Promise<void>;
  note(line: string): void;
  log(line: string): void;
}

interface ScenarioFaults {
  broker: LocalBrokerOptions | null;
  proxy: TcpProxy;
  cluster: LocalCluster | null;
  admin: Admin;
  topics: { input: string; results: string; dlq: string };
  /** Proxies in front of every node, which the workers reach the cluster through (plans with throughProxies). */
  brokerProxies: ReadonlyMap<ClusterNode, TcpProxy>;
  nemesis: { seed: number; durationMs: number } | null;
  /** The nemesis's producer, which sends the input through the whole schedule (null: produced up front). */
  producing: ContinuousProducer | null;
}

type ScenarioPlan = {
  keys?: number;
  policy: 'pause' | 'dead-letter';
  ordered: boolean;
  /** Mixes of bad records; the isolation scenario places its one poison record itself. */
  mixes: boolean;
  /** The workers reach the cluster through a TcpProxy per node, so the network to one node can degrade. */
  throughProxies?: boolean;
  /**
   * WARDEN_SESSION_TIMEOUT_MS of the workers, unset: the worker's default. A killed worker's partitions wait
   * this long for the survivor to take them over.
   */
  sessionTimeoutMs?: number;
  run(ctx: ScenarioContext, faults: ScenarioFaults): Promise<void>;
};

/** How long below-min-isr keeps two nodes down: longer than the worker's 20 s readiness window. */
const BELOW_MIN_ISR_OUTAGE_MS = 35_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function needCluster(cluster: LocalCluster | null): LocalCluster {
  if (!cluster) throw new Error('this scenario needs the three-node cluster (npm run verify -- --cluster 3)');
  return cluster;
}

/** kill -9 of `node`, a pause while the rest of the cluster carries on, then its restart. */
async function killAndRestart(ctx: ScenarioContext, cluster: LocalCluster, node: ClusterNode, why: string) {
  await ctx.fault(`kill -9 of node ${node} (${why})`, () => cluster.killNode(node));
  await pause(5_000);
  await ctx.fault(`node ${node} restarted`, () => cluster.startNode(node));
}

/** Every failover scenario: the mixes of bad records, dead-lettered, per-key order checked. */
const FAILOVER = { policy: 'dead-letter', ordered: true, mixes: true } as const;

const CLUSTER_PLANS: Record<(typeof CLUSTER_SCENARIOS)[number], ScenarioPlan> = {
  'leader-kill': {
    ...FAILOVER,
    async run(ctx, { cluster, admin, topics }) {
      const nodes = needCluster(cluster);
      await ctx.startWorker(0);
      await ctx.startWorker(1);
      await ctx.progress(0.3);
      const leader = await nodes.waitForLeader(admin, topics.input, 0);
      await killAndRestart(ctx, nodes, leader, `leader of ${topics.input}[0]`);
    },
  },
  'results-leader-kill': {
    ...FAILOVER,
    async run(ctx, { cluster, admin, topics }) {
      const nodes = needCluster(cluster);
      await ctx.startWorker(0);
      await ctx.progress(0.25);
      const resultsLeader = await nodes.waitForLeader(admin, topics.results, 0);
      await killAndRestart(ctx, nodes, resultsLeader, 'leader of the results topic');
      await ctx.progress(0.55);
      const dlqLeader = await nodes.waitForLeader(admin, topics.dlq, 0);
      await killAndRestart(ctx, nodes, dlqLeader, 'leader of the dead-letter topic');
    },
  },
  'rolling-restart': {
    ...FAILOVER,
    async run(ctx, { cluster }) {
      const nodes = needCluster(cluster);
      await ctx.startWorker(0);
      for (const node of [1, 2, 3] as const) {
        await ctx.progress(0.2 * node);
        await ctx.fault(`SIGTERM of node ${node} (controlled shutdown)`, () => nodes.stopNode(node));
        await ctx.fault(`node ${node} restarted`, () => nodes.startNode(node));
      }
    },
  },
  'controller-kill': {
    ...FAILOVER,
    async run(ctx, { cluster }) {
      const nodes = needCluster(cluster);
      await ctx.startWorker(0);
      await ctx.progress(0.3);
      const controller = await nodes.activeController();
      await killAndRestart(ctx, nodes, controller, 'the active controller');
      const next = await nodes.activeController();
      if (next === controller) ctx.note(`node ${controller} is the active controller again after its restart`);
    },
  },
  'below-min-isr': {
    ...FAILOVER,
    async run(ctx, { cluster, admin }) {
      const nodes = needCluster(cluster);
      await ctx.startWorker(0);
      await ctx.progress(0.3);
      // Two of three down: one replica left, below min.insync.replicas=2 and without a controller quorum. The
      // survivor coordinates the group, so heartbeats flow: only held work that completes nothing for the
      // worker's readiness window (20 s) turns it not ready, so the outage lasts clearly longer than that.
      const survivor = await nodes.groupCoordinator(admin);
      const down = ([1, 2, 3] as const).filter((n) => n !== survivor);
      const outage = (async () => {
        for (const node of down)
          await ctx.fault(`kill -9 of node ${node} (two nodes down)`, () => nodes.killNode(node), {
            checkpoint: false,
          });
        await pause(BELOW_MIN_ISR_OUTAGE_MS);
      })();
      const { notReadyDetail } = await ctx.watchReadiness(outage);
      await outage;
      if (notReadyDetail === null)
        ctx.note('readiness: the worker never reported not ready while two of three nodes were down');
      else ctx.note(`not ready during the outage, as required: "${notReadyDetail}"`);
      for (const node of down) await ctx.fault(`node ${node} restarted`, () => nodes.startNode(node));
      await ctx.workersReady(120_000);
    },
  },
  'coordinator-kill': {
    ...FAILOVER,
    async run(ctx, { cluster, admin }) {
      const nodes = needCluster(cluster);
      await ctx.startWorker(0);
      await ctx.startWorker(1);
      await ctx.progress(0.3);
      const coordinator = await nodes.groupCoordinator(admin);
      await killAndRestart(ctx, nodes, coordinator, 'coordinator of the group');
    },
  },
  'slow-broker': {
    ...FAILOVER,
    throughProxies: true,
    async run(ctx, { cluster, admin, topics, brokerProxies }) {
      const nodes = needCluster(cluster);
      await ctx.startWorker(0);
      await ctx.progress(0.2);
      const node = await nodes.waitForLeader(admin, topics.input, 0);
      const proxy = brokerProxies.get(node)!;
      // The node stays in the cluster (replication is direct): only the workers' network to it degrades.
      await ctx.fault(`300 ms latency to node ${node}`, async () => proxy.setLatency(300));
      await pause(15_000);
      await ctx.fault(`node ${node} silent (connections open, no bytes pass)`, async () => proxy.setStalled(true));
      await pause(40_000);
      await ctx.fault(`connections to node ${node} cut and refused`, async () => proxy.setDown(true));
      await pause(10_000);
      await ctx.fault(`network to node ${node} healthy again`, async () => {
        proxy.setDown(false);
        proxy.setStalled(false);
        proxy.setLatency(0);
      });
    },
  },
};

const SCENARIO_PLANS: Record<(typeof SCENARIOS)[number], ScenarioPlan> = {
  steady: { policy: 'dead-letter', ordered: true, mixes: true, run: async (ctx) => ctx.startWorker(0) },
  kill9: {
    policy: 'dead-letter',
    ordered: true,
    mixes: true,
    // The broker's shortest: the scenario proves what a takeover preserves, not how long the default waits.
    sessionTimeoutMs: 6_000,
    async run(ctx) {
      await ctx.startWorker(0);
      await ctx.startWorker(1);
      await ctx.progress(0.3);
      await ctx.stopWorker(0, 'SIGKILL');
      await ctx.checkpoint('kill -9 of worker 0');
      await ctx.startWorker(0);
    },
  },
  rebalance: {
    policy: 'dead-letter',
    ordered: true,
    mixes: true,
    async run(ctx) {
      await ctx.startWorker(0);
      await ctx.progress(0.2);
      await ctx.startWorker(1);
      await ctx.checkpoint('worker 1 joined');
      await ctx.progress(0.6);
      await ctx.stopWorker(0, 'SIGTERM');
      await ctx.checkpoint('worker 0 left');
    },
  },
  'broker-restart': {
    ...FAILOVER,
    async run(ctx, { broker }) {
      await ctx.startWorker(0);
      if (!broker) return ctx.note('KAFKA_BROKERS is an external cluster: the broker was not restarted');
      await ctx.progress(0.3);
      await stopLocalBroker(broker);
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      await startLocalBroker({ ...broker, fresh: false });
      await ctx.checkpoint('broker restart');
    },
  },
  'db-outage': {
    ...FAILOVER,
    async run(ctx, { proxy }) {
      await ctx.startWorker(0);
      await ctx.progress(0.3);
      proxy.setDown(true);
      await new Promise((resolve) => setTimeout(resolve, 10_000));
      proxy.setDown(false);
      await ctx.checkpoint('database back after 10 s');
    },
  },
  keys1000: { keys: 1_000, policy: 'dead-letter', ordered: true, mixes: true, run: async (ctx) => ctx.startWorker(0) },
  isolation: { policy: 'pause', ordered: true, mixes: false, run: async (ctx) => ctx.startWorker(0) },
};

/** The nemesis's clock: real time (the scheduler is unit-tested on fake time). */
const REAL_CLOCK = { now: () => Date.now(), sleep: async (ms: number) => void (await pause(ms)) };

/**
 * The nemesis: the seeded schedule of planNemesis, printed first, each step applied at its time while the
 * others run (runSchedule), and the input produced at an even rate through the whole schedule. The checker
 * runs after every step that leaves all nodes and the database up (a node counts as down from its kill
 * until its restart returned), one check at a time beside the schedule; a check whose reads fail because a
 * fault began meanwhile is noted and skipped.
 */
const NEMESIS_PLAN: ScenarioPlan = {
  ...FAILOVER,
  async run(ctx, { cluster, proxy, nemesis, producing }) {
    const nodes = needCluster(cluster);
    if (!nemesis || !producing) throw new Error('the nemesis needs --seed and --duration');
    const faults = planNemesis(nemesis.seed, nemesis.durationMs);
    const steps = nemesisSteps(faults);
    ctx.note(
      `seed ${nemesis.seed}: ${faults.length} faults, ${steps.length} steps over ${nemesis.durationMs / 60_000} min`,
    );
    ctx.log(`verify nemesis: seed ${nemesis.seed}, ${faults.length} faults (start → end, seconds from the start):`);
    for (const line of describeSchedule(faults)) ctx.log(`  ${line}`);
    await ctx.startWorker(0);
    const producingDone = producing.run(nemesis.durationMs);
    const nodesDown = new Set<number>();
    let databaseDown = false;
    const checks = serialChecks(ctx);
    const outcomes = await runSchedule(
      steps,
      REAL_CLOCK,
      async (step) => {
        const { action } = step;
        if (action.kind === 'kill-node' || action.kind === 'stop-node') nodesDown.add(action.node);
        if (action.kind === 'database-down') databaseDown = true;
        await ctx.fault(describeAction(action), nemesisInject(step, nodes, ctx, proxy), { checkpoint: false });
        if (action.kind === 'start-node') nodesDown.delete(action.node);
        if (action.kind === 'database-up') databaseDown = false;
        if (nodesDown.size === 0 && !databaseDown) checks.request(describeAction(action));
      },
      oneNodeUp(nodesDown),
    );
    await producingDone;
    await checks.idle();
    const late = outcomes.map((o) => o.beganMs - o.step.atMs);
    const lastEnd = Math.max(0, ...outcomes.map((o) => o.endedMs));
    ctx.note(
      `schedule of ${Math.round(nemesis.durationMs / 1_000)} s applied in ${Math.round(lastEnd / 1_000)} s: steps began ` +
        `at most ${(Math.max(0, ...late) / 1_000).toFixed(1)} s late (median ${(median(late) / 1_000).toFixed(1)} s)`,
    );
    for (const failed of outcomes.filter((o) => o.error !== undefined))
      ctx.note(
        `scenario failed: step ${describeAction(failed.step.action)} at ${failed.step.atMs} ms: ${failed.error}`,
      );
  },
};

/**
 * The nemesis's checks, one at a time beside the schedule: a request while one runs is kept (the newest
 * only) and runs after it. A check whose reads fail is noted as skipped: a fault began during it.
 */
function serialChecks(ctx: ScenarioContext): { request(after: string): void; idle(): Promise<void> } {
  let pending: string | null = null;
  let running: Promise<void> | null = null;
  const drain = async () => {
    while (pending !== null) {
      const after = pending;
      pending = null;
      await ctx
        .checkpoint(after)
        .catch((error: Error) =>
          ctx.note(`check after ${after} skipped: its reads failed (${error.message.slice(0, 120)})`),
        );
    }
    running = null;
  };
  return {
    request(after) {
      pending = after;
      running ??= drain();
    },
    idle: async () => {
      while (running !== null) await running;
    },
  };
}

const median = (values: readonly number[]) =>
  values.length === 0 ? 0 : [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function nemesisInject(
  { action }: NemesisStep,
  nodes: LocalCluster,
  ctx: ScenarioContext,
  database: TcpProxy,
): () => Promise<void> {
  switch (action.kind) {
    case 'kill-node':
      return () => nodes.killNode(action.node);
    case 'stop-node':
      return () => nodes.stopNode(action.node);
    case 'start-node':
      return () => nodes.startNode(action.node);
    case 'kill-worker':
      return () => ctx.stopWorker(action.worker, 'SIGKILL');
    case 'stop-worker':
      return () => ctx.stopWorker(action.worker, 'SIGTERM');
    case 'start-worker':
      // Not waiting for ready: the cluster or the database may be down at this moment.
      return () => ctx.startWorker(action.worker, false);
    case 'database-down':
      return async () => database.setDown(true);
    case 'database-up':
      return async () => database.setDown(false);
  }
}

const PLANS: Record<ScenarioName, ScenarioPlan> = { ...SCENARIO_PLANS, ...CLUSTER_PLANS, nemesis: NEMESIS_PLAN };

export async function runVerification(options: VerifyOptions): Promise<ScenarioReport[]> {
  const reports: ScenarioReport[] = [];
  for (const scenario of options.scenarios) reports.push(await runScenario(scenario, options));
  return reports;
}

async function runScenario(scenario: ScenarioName, options: VerifyOptions): Promise<ScenarioReport> {
  const plan = PLANS[scenario];
  const started = Date.now();
  const runId = uniqueName(`verify-${scenario}`);
  const topics = { input: `${runId}-in`, results: `${runId}-results`, dlq: `${runId}-dlq` };
  const groupId = `${runId}-group`;
  const { kafka, admin, db, log } = options;
  const notes: string[] = [];
  const checkpoints: ScenarioReport['checkpoints'] = [];
  const throughout = scenario === 'nemesis';
  log(
    `verify ${scenario}: producing ${options.records} records on ${options.partitions} partitions` +
      (throughout ? ' through the schedule' : ''),
  );

  await ensureTopics(admin, [
    { topic: topics.input, numPartitions: options.partitions },
    { topic: topics.results, numPartitions: 1 },
    { topic: topics.dlq, numPartitions: 1 },
  ]);
  const planned = planInput(
    {
      runId,
      records: options.records,
      keys: plan.keys ?? options.keys,
      poisonShare: plan.mixes ? options.poisonShare : 0,
      malformedShare: plan.mixes ? options.malformedShare : 0,
      ignoredShare: options.ignoredShare,
    },
    scenario === 'isolation',
  );
  // The nemesis produces while the faults run: until its producer is reconciled with the log after the
  // schedule, the checks judge the records acknowledged so far.
  const producing = throughout ? new ContinuousProducer(kafka, topics.input, planned, options.partitions) : null;
  let produced: readonly ProducedRecord[] = producing ? [] : await produce(kafka, admin, topics.input, planned);
  const producedSoFar = () => (producing && produced.length === 0 ? producing.acked : produced);

  const proxy = new TcpProxy({
    host: new URL(options.databaseUrl).hostname,
    port: Number(new URL(options.databaseUrl).port || 5432),
  });
  const proxyPort = await proxy.start();
  const workerDatabaseUrl = new URL(options.databaseUrl);
  if (scenario === 'db-outage' || scenario === 'nemesis') workerDatabaseUrl.port = String(proxyPort);
  const brokerProxies = new Map<ClusterNode, TcpProxy>();
  if (plan.throughProxies) {
    const cluster = needCluster(options.cluster ?? null);
    for (const node of CLUSTER_NODES) {
      const route = cluster.proxyRoute(node);
      const brokerProxy = new TcpProxy(route.target);
      await brokerProxy.start(route.listen);
      brokerProxies.set(node, brokerProxy);
    }
  }
  const workerBrokers = plan.throughProxies
    ? [...brokerProxies.keys()].map((node) => `127.0.0.1:${options.cluster!.proxyRoute(node).listen}`)
    : options.brokers;
  const workers = new Map<number, WorkerProcess>();
  const env = (index: number) => ({
    DATABASE_URL: workerDatabaseUrl.toString(),
    KAFKA_BROKERS: workerBrokers.join(','),
    WARDEN_GROUP_ID: groupId,
    WARDEN_INPUT_TOPIC: topics.input,
    WARDEN_RESULTS_TOPIC: topics.results,
    WARDEN_DLQ_TOPIC: topics.dlq,
    WARDEN_INPUT_PARTITIONS: String(options.partitions),
    WARDEN_QUARANTINE_POLICY: plan.policy,
    WARDEN_ORDERING: options.ordering,
    WARDEN_FAULT_TRANSIENT_RATE: String(options.transientRate),
    WARDEN_FAULT_LATENCY_MS: String(options.maxLatencyMs),
    WORKER_PORT: String(options.firstWorkerPort + index),
    KAFKA_CLIENT_ID: `verify-worker-${index}`,
    SAMPLER_GROUP_INCLUDE: '^$',
    SAMPLE_INTERVAL_MS: '60000',
    LOG_LEVEL: 'error',
    ...(plan.sessionTimeoutMs === undefined ? {} : { WARDEN_SESSION_TIMEOUT_MS: String(plan.sessionTimeoutMs) }),
  });
  // Observing retries: right after a broker restart the group coordinator is still loading.
  const seen = (withResults = false) =>
    eventually(
      'an observation of the run',
      () =>
        observe({
          kafka,
          admin,
          db,
          runId,
          groupId,
          inputTopic: topics.input,
          dlqTopic: topics.dlq,
          ...(withResults ? { resultsTopic: topics.results } : {}),
        }),
      60_000,
    );
  const countValid = (records: ReadonlyArray<{ kind: string }>) => records.filter((r) => r.kind === 'valid').length;
  let validCount = countValid(producing ? planned : produced);
  if (options.cluster) await checkReplication(admin, Object.values(topics), notes);
  const storedCount = () => db.storedDocument.count({ where: { businessId: { startsWith: `${runId}-` } } });
  // The stored count over time, for the longest stop in processing after each fault.
  const samples: ProgressSample[] = [];
  const marks: FaultMark[] = [];
  const sampleStart = Date.now();
  // Every worker process's resident memory every 5 s, one series per process (a restart starts a new one).
  const rssSeries: Array<{ worker: number; samples: RssSample[]; process: WorkerProcess }> = [];
  let sampling = true;
  const sampler = (async () => {
    for (let round = 0; sampling; round++) {
      const handled = await storedCount().catch(() => null);
      if (handled !== null) samples.push({ atMs: Date.now(), handled });
      if (round % 20 === 0)
        for (const series of rssSeries) {
          const rssBytes = series.process.pid === null ? null : readRssBytes(series.process.pid);
          if (rssBytes !== null) series.samples.push({ atMs: Date.now(), rssBytes });
        }
      await pause(250);
    }
  })();

  const ctx: ScenarioContext = {
    async startWorker(index, waitReady = true) {
      const worker = new WorkerProcess(env(index));
      workers.set(index, worker);
      rssSeries.push({ worker: index, samples: [], process: worker });
      await worker.start(waitReady);
    },
    async stopWorker(index, signal) {
      await workers.get(index)?.stop(signal);
      workers.delete(index);
    },
    async progress(fraction) {
      const target = Math.floor(validCount * fraction);
      await eventually(
        `${Math.round(fraction * 100)}% of ${scenario} processed`,
        async () => ((await storedCount()) >= target ? true : undefined),
        300_000,
      );
    },
    async fault(name, inject, { checkpoint } = { checkpoint: true }) {
      log(`verify ${scenario}: ${name}`);
      marks.push({ fault: name, atMs: Date.now() });
      await inject();
      if (checkpoint) await ctx.checkpoint(name);
    },
    async watchReadiness(until) {
      let done = false;
      let notReadyDetail: string | null = null;
      const finish = () => void (done = true);
      until.then(finish, finish);
      while (!done) {
        for (const worker of workers.values()) {
          const readiness = await worker.readiness();
          if (!readiness.ready && notReadyDetail === null) notReadyDetail = readiness.detail;
        }
        await pause(500);
      }
      return { sawNotReady: notReadyDetail !== null, notReadyDetail };
    },
    async workersReady(timeoutMs) {
      for (const [index, worker] of workers)
        await eventually(
          `worker ${index} ready again`,
          async () => ((await worker.ready()) ? true : undefined),
          timeoutMs,
        );
    },
    async checkpoint(after) {
      const records = producedSoFar();
      const verdict = judge(records, await seen(), false);
      checkpoints.push({ after, commitViolations: verdict.commitViolations.length });
      if (verdict.commitViolations.length > 0)
        notes.push(`after ${after}: ${verdict.commitViolations.slice(0, 3).join('; ')}`);
    },
    note: (line) => notes.push(line),
    log,
  };

  try {
    await plan.run(ctx, {
      broker: options.localBroker,
      proxy,
      cluster: options.cluster ?? null,
      admin,
      topics,
      brokerProxies,
      nemesis: options.nemesis ?? null,
      producing,
    });
    if (producing) {
      produced = await producing.reconcile(admin, notes);
      validCount = countValid(produced);
    }
    await waitForCompletion(produced, seen, plan.policy);
    await waitForResults(produced, seen, notes);
  } catch (error) {
    notes.push(`scenario failed: ${(error as Error).message}`);
  } finally {
    for (const [index, worker] of workers) {
      await worker.stop('SIGTERM');
      const errors = worker.output.split('\n').filter((line) => /"level":(50|60)/.test(line));
      if (errors.length > 0)
        notes.push(`worker ${index} logged ${errors.length} error(s); last: ${errors.at(-1)!.slice(0, 300)}`);
    }
    await proxy.stop();
    for (const brokerProxy of brokerProxies.values()) await brokerProxy.stop();
    sampling = false;
    await sampler;
  }
  const faults = longestStops(samples, marks, sampleStart, Date.now(), validCount);
  if (scenario === 'nemesis') notes.push(...describeRssSlopes(rssSeries));
  // The final verdict also checks every stored record's result reached the results topic.
  const final = await seen(true);
  const verdict = judge(produced, final, true);
  if (scenario === 'isolation') checkIsolation(produced, verdict, final, notes);
  if (verdict.missingResults.length > 0) {
    const unfinished = uncommittedRecords(produced, final, verdict.missingResults);
    notes.push(
      `${verdict.missingResults.length} stored records without a result on the results topic: ${unfinished} at or ` +
        `above their partition's committed offset (unfinished, a restart redelivers them), ` +
        `${verdict.missingResults.length - unfinished} below it (commit violations)`,
    );
  }
  if (verdict.lost.length > 0) notes.push(`lost, for example: ${verdict.lost.slice(0, 5).join(', ')}`);
  if (verdict.deadLetteredValid.length > 0)
    notes.push(
      `${verdict.deadLetteredValid.length} valid record(s) dead-lettered (the error is in their dead-letter headers), ` +
        `for example: ${verdict.deadLetteredValid.slice(0, 3).join(', ')}`,
    );
  const passed =
    passes(verdict, { ordered: plan.ordered && options.ordering !== 'unordered' }) &&
    checkpoints.every((c) => c.commitViolations === 0) &&
    !notes.some((n) => n.startsWith('scenario failed') || n.startsWith('isolation') || n.startsWith('readiness'));
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  log(`verify ${scenario}: ${passed ? 'PASS' : 'FAIL'} in ${seconds} s`);
  return { scenario, passed, seconds, verdict, checkpoints, faults, notes };
}

/** No progress for this long ends the wait: what is missing then is reported as lost. */
const STALLED_RUN_MS = 60_000;

/** Waits until every valid record is stored and every bad record accounted for, or progress stops. */
export async function waitForCompletion(
  produced: readonly ProducedRecord[],
  seen: () => Promise<Observation>,
  policy: 'pause' | 'dead-letter',
): Promise<Verdict> {
  let lastProgress = { at: Date.now(), handled: -1 };
  for (;;) {
    const verdict = judge(produced, await seen(), true);
    const accounted = policy === 'pause' || verdict.deadLettered === verdict.badRecords;
    if (verdict.lost.length === 0 && accounted) return verdict;
    const handled = verdict.stored + verdict.deadLettered;
    if (handled > lastProgress.handled) lastProgress = { at: Date.now(), handled };
    else if (Date.now() - lastProgress.at > STALLED_RUN_MS) return verdict;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** How often the results topic is read while results are still missing (each read is the whole topic). */
const RESULTS_POLL_MS = 5_000;

/**
 * Waits, before the workers stop, until every stored record's result is on the results topic: a record is
 * stored before its result is acknowledged, so once every row is stored some results may still be
 * retrying (a results leader moving, fewer in-sync replicas than min.insync.replicas), and a worker stopped
 * then leaves them unfinished and uncommitted for a redelivery that never comes in this run. No new
 * result for STALLED_RUN_MS ends the wait; the final verdict then reports what is missing.
 */
export async function waitForResults(
  produced: readonly ProducedRecord[],
  seen: (withResults: boolean) => Promise<Observation>,
  notes: string[],
): Promise<void> {
  const started = Date.now();
  let first: number | null = null;
  let lastProgress = { at: Date.now(), missing: Number.POSITIVE_INFINITY };
  for (;;) {
    const missing = judge(produced, await seen(true), true).missingResults.length;
    first ??= missing;
    if (missing === 0) {
      if (first > 0)
        notes.push(
          `when every record was stored, ${first} result(s) were not yet acknowledged; all were on the results ` +
            `topic ${Math.round((Date.now() - started) / 1_000)} s later`,
        );
      return;
    }
    if (missing < lastProgress.missing) lastProgress = { at: Date.now(), missing };
    else if (Date.now() - lastProgress.at > STALLED_RUN_MS) {
      notes.push(`${first} result(s) missing when every record was stored, ${missing} still missing after the wait`);
      return;
    }
    await pause(RESULTS_POLL_MS);
  }
}

/** A process's resident set size from /proc (Linux); null when it is gone or /proc cannot tell. */
function readRssBytes(pid: number): number | null {
  try {
    const kib = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kib === undefined ? null : Number(kib) * 1024;
  } catch {
    return null;
  }
}

/** One line per worker process that lived long enough for a slope; the longest-lived first. */
function describeRssSlopes(series: ReadonlyArray<{ worker: number; samples: RssSample[] }>): string[] {
  const span = (s: { samples: RssSample[] }) => (s.samples.at(-1)?.atMs ?? 0) - (s.samples[0]?.atMs ?? 0);
  return [...series]
    .filter((s) => s.samples.length >= 4)
    .sort((a, b) => span(b) - span(a))
    .map((s) => {
      const mib = (bytes: number) => Math.round(bytes / 1_048_576);
      return (
        `worker ${s.worker} RSS over ${Math.round(span(s) / 60_000)} min: slope ${rssSlopeMiBPerMinute(s.samples)} MiB/min ` +
        `(${mib(s.samples[0]!.rssBytes)} → ${mib(s.samples.at(-1)!.rssBytes)} MiB, max ${mib(Math.max(...s.samples.map((x) => x.rssBytes)))} MiB, ${s.samples.length} samples)`
      );
    });
}

/** How many of `ids` are at or above their partition's committed offset: not yet committed. */
function uncommittedRecords(produced: readonly ProducedRecord[], seen: Observation, ids: readonly string[]): number {
  const wanted = new Set(ids);
  return produced.filter((r) => {
    const committed = seen.committed.get(r.partition);
    return wanted.has(r.id) && (committed === undefined || r.offset >= committed);
  }).length;
}

/** On the cluster every scenario topic must have three replicas (RF 3, from the brokers' default). */
async function checkReplication(admin: Admin, topics: string[], notes: string[]): Promise<void> {
  const { topics: described } = await admin.fetchTopicMetadata({ topics });
  for (const topic of described)
    for (const partition of topic.partitions)
      if (partition.replicas.length !== 3)
        notes.push(
          `scenario failed: ${topic.name}[${partition.partitionId}] has ${partition.replicas.length} replicas, not 3`,
        );
}

/** While one partition is quarantined, all other partitions finish and its commit stays at the poison. */
function checkIsolation(
  produced: readonly ProducedRecord[],
  verdict: Verdict,
  seen: Observation,
  notes: string[],
): void {
  const poison = produced.find((r) => r.kind === 'poison');
  if (!poison) return void notes.push('isolation: no poison record was produced');
  const held = seen.quarantined.get(poison.partition);
  if (held !== poison.offset)
    notes.push(`isolation: partition ${poison.partition} is held at ${held ?? 'nothing'}, expected ${poison.offset}`);
  const committed = seen.committed.get(poison.partition);
  if (committed !== undefined && committed > poison.offset)
    notes.push(`isolation: partition ${poison.partition} committed ${committed}, past the poison at ${poison.offset}`);
  const othersUnfinished = produced.filter(
    (r) => r.partition !== poison.partition && r.kind === 'valid' && !seen.stored.has(r.id),
  );
  if (othersUnfinished.length > 0)
    notes.push(`isolation: ${othersUnfinished.length} records of healthy partitions unfinished`);
  if (verdict.lost.length > 0) notes.push(`isolation: ${verdict.lost.length} lost`);
}

function planInput(plan: PlanOptions, withOnePoison: boolean): PlannedRecord[] {
  // Its own generator, not test-support's: the record plan it draws puts the 300 KiB oversized records in
  // different produce batches; other plans can put several into one partition's batch, above the broker's
  // maximum message size.
  let seed = 7;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const planned = planRecords(plan, random);
  if (withOnePoison) planned[Math.min(5, planned.length - 1)]!.kind = 'poison';
  return planned;
}

/** Produces every planned record before the workers start, and reads back where each landed. */
async function produce(
  kafka: Kafka,
  admin: Admin,
  topic: string,
  planned: readonly PlannedRecord[],
): Promise<ProducedRecord[]> {
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    for (let start = 0; start < planned.length; start += 2_000) {
      const slice = planned.slice(start, start + 2_000);
      await producer.send({ topic, acks: -1, messages: slice.map((record, i) => encodeRecord(record, start + i)) });
    }
  } finally {
    await producer.disconnect();
  }
  const positions = new Map(
    (await readWholeTopic(kafka, admin, topic)).map((m) => [m.headers['verify-id'], m] as const),
  );
  return planned.map((record) => {
    const position = positions.get(record.id);
    if (!position) throw new Error(`produced record ${record.id} not found in ${topic}`);
    return { ...record, partition: position.partition, offset: BigInt(position.offset) };
  });
}
