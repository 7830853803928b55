// npm run demo - everything on embedded defaults: the local broker (unless KAFKA_BROKERS is set), the
// database and its migrations, the worker, the demo story's traffic and the UI, and beside Warden's own
// pipeline a team's own service (examples/orders-service, run from source: scripts/demo/demo-orders-service.ts).
// Ctrl-C stops every process started here, the broker included when this script started it.
//
//   --no-traffic   no demo traffic and no story: watch a real cluster (set KAFKA_BROKERS) with the worker's sampler
//   --no-ui        no dashboard (headless runs and tests)
//   --rebuild      rebuild the UI even if a build exists
//   --keep-state   keep the previous run's topics, commits and samples (by default a story run on the bundled
//                  broker starts over: scripts/demo/demo-reset.ts)
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { childProcessEnv } from '../lib/config/program-config';
import { loadDemoConfig } from './demo/config';
import { createDatabase } from '../lib/db';
import { createKafka, kafkaSecurityFrom } from '../lib/kafka/client';
import { ensureTopics } from '../worker/kafka/topics';
import { EMPTY_ALERT_SETTINGS } from '../lib/alerts/alert-settings';
import { DemoAlertReceiver } from './demo/demo-alert-receiver';
import { resetDemoState } from './demo/demo-reset';
import { ORDERS_SERVICE, ORDERS_SERVICE_NODE_ARGS, ordersServiceEnv } from './demo/demo-orders-service';
import { DemoPlainConsumer } from './demo/demo-plain-consumer';
import { archiverGroupId, AUDIT_TOPIC_CONFIGS, auditTopic, DemoArchiver, SHORT_RETENTION } from './demo/demo-archiver';
import {
  actsStartingBetween,
  ORDERS_SERVICE_ACTS,
  planAt,
  plainConsumerGroupId,
  type DemoStorySettings,
} from './demo/demo-story';
import { DemoTraffic, HOT_KEY, HOT_PARTITION, MALFORMED_ORDER_PARTITION, POISON_PARTITION } from './demo/demo-traffic';
import { startLocalBroker, stopLocalBroker, localBrokerRunning } from './lib/broker';
import { demoAccess } from './lib/demo-access';
import { ensureDatabase, migrateDatabase } from './lib/database';
import { eventually } from '../test-support/eventually';
import { parseCommandLine, UsageError } from './lib/command-line';
import { ProcessGroup, run } from './lib/processes';

const ROOT = path.resolve(__dirname, '..');
const USAGE = `usage: npm run demo [-- [--no-traffic] [--no-ui] [--rebuild] [--keep-state]]
  --no-traffic   no demo traffic and no story: watch a real cluster (set KAFKA_BROKERS) with the worker's sampler
  --no-ui        no dashboard (headless runs and tests)
  --rebuild      rebuild the UI even if a build exists
  --keep-state   keep the previous run's topics, commits and samples`;
const OPTIONS = {
  'no-traffic': { type: 'boolean', default: false },
  'no-ui': { type: 'boolean', default: false },
  rebuild: { type: 'boolean', default: false },
  'keep-state': { type: 'boolean', default: false },
} as const;
const TICK_MS = 200;

async function main(): Promise<void> {
  let flags;
  try {
    flags = parseCommandLine(process.argv.slice(2), OPTIONS).values;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`demo: ${error.message}\n${USAGE}`);
    process.exit(2);
  }
  if (flags.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const withTraffic = !flags['no-traffic'];
  const withUi = !flags['no-ui'];
  const config = loadDemoConfig();
  // Sign-in for the dashboard: demo users with printed passwords unless WARDEN_USERS is set.
  const access = demoAccess(config);
  const started = Date.now();
  const children = new ProcessGroup();
  const broker = { port: config.WARDEN_KAFKA_PORT, controllerPort: config.WARDEN_KAFKA_PORT + 1 };
  const brokerStartedHere = config.usesLocalBroker && !(await localBrokerRunning(broker));
  // The demo's own client logs nothing: what it retries (a fresh broker's coordinator still loading) is not the
  // user's concern, and what fails for good is thrown and printed as one `demo:` line.
  const kafka = createKafka({
    brokers: config.kafkaBrokers,
    clientId: 'warden-demo',
    logLevel: 'nothing',
    ...kafkaSecurityFrom(config),
  });
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  const plainConsumer = new DemoPlainConsumer(
    kafka,
    plainConsumerGroupId(config.WARDEN_GROUP_ID),
    config.WARDEN_INPUT_TOPIC,
  );
  let plainConsumerDone = false;
  const audit = { topic: auditTopic(config.WARDEN_INPUT_TOPIC), groupId: archiverGroupId(config.WARDEN_GROUP_ID) };
  const archiver = new DemoArchiver(kafka, audit.groupId, audit.topic);
  let story: NodeJS.Timeout | null = null;
  let shuttingDown = false;
  // Alerts go to the user's receivers when ALERT_WEBHOOK_URL is set, else to one the demo runs and prints.
  const alertReceiver =
    config.ALERT_WEBHOOK_URL === undefined ? new DemoAlertReceiver((line) => console.log(line)) : null;
  // With the story's traffic, the orders service runs beside the worker (unless the brokers need TLS or SASL).
  const ordersServicePort = config.WORKER_PORT + 2;
  const ordersService = withTraffic
    ? ordersServiceEnv({
        kafkaBrokers: config.kafkaBrokers,
        secured: config.kafkaSecurity.tls !== null || config.kafkaSecurity.sasl !== null,
        wardenDatabaseUrl: config.DATABASE_URL,
        controlTopicPrefix: config.WARDEN_CONTROL_TOPIC_PREFIX,
        controlSigningKey: config.WARDEN_CONTROL_SIGNING_KEY?.reveal(),
        port: ordersServicePort,
        tsconfigPath: path.join(ROOT, 'tsconfig.json'),
      })
    : null;
  const ordersServiceEnvironment = ordersService !== null && 'env' in ordersService ? ordersService.env : null;
  if (ordersService !== null && 'skipped' in ordersService)
    console.log(`demo: orders service: ${ordersService.skipped}`);

  const shutdown = async (code: number) => {
    if (shuttingDown) return;
    shuttingDown = true;
    console.log('\ndemo: stopping everything it started…');
    if (story) clearInterval(story);
    await producer.disconnect().catch(() => undefined);
    await plainConsumer.stop().catch(() => undefined);
    await archiver.stop().catch(() => undefined);
    await children.stopAll();
    if (alertReceiver) {
      console.log(`demo: ${alertReceiver.summary()}`);
      await alertReceiver.stop();
    }
    if (brokerStartedHere) await stopLocalBroker(broker).catch((e: Error) => console.error(e.message));
    console.log('demo: stopped');
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  try {
    if (config.usesLocalBroker) await startLocalBroker(broker);
    await migrateDatabase(config.DATABASE_URL);
    console.log(`demo: database ready (${redactedUrl(config.DATABASE_URL)})`);

    const admin = kafka.admin();
    await admin.connect();
    if (withTraffic && config.usesLocalBroker && !flags['keep-state']) {
      const db = createDatabase(config.DATABASE_URL);
      try {
        const topics = [
          config.WARDEN_INPUT_TOPIC,
          config.WARDEN_RESULTS_TOPIC,
          config.WARDEN_DLQ_TOPIC,
          ORDERS_SERVICE.topic,
          ORDERS_SERVICE.resultsTopic,
          audit.topic,
        ];
        const reset = await resetDemoState(admin, db, {
          groupId: config.WARDEN_GROUP_ID,
          otherGroupIds: [plainConsumerGroupId(config.WARDEN_GROUP_ID), ORDERS_SERVICE.groupId, audit.groupId],
          topics,
        });
        if (reset.topicsDeleted.length > 0 || reset.samplesDeleted > 0) {
          console.log(
            `demo: starting over: the previous run's topics (${reset.topicsDeleted.join(', ') || 'none'}), ${reset.samplesDeleted} lag samples ` +
              `and ${reset.quarantinesDeleted} quarantine(s) of ${config.WARDEN_GROUP_ID} and ${ORDERS_SERVICE.groupId} removed; the audit log stays (--keep-state keeps everything)`,
          );
        }
      } finally {
        await db.$disconnect();
      }
    }
    // A topic deleted a moment ago can take a little while before the broker accepts its name again.
    await eventually('the demo topics', async () => {
      await ensureTopics(admin, [
        { topic: config.WARDEN_INPUT_TOPIC, numPartitions: config.WARDEN_INPUT_PARTITIONS },
        { topic: config.WARDEN_RESULTS_TOPIC, numPartitions: config.WARDEN_INPUT_PARTITIONS },
        ...(ordersServiceEnvironment
          ? [
              { topic: ORDERS_SERVICE.topic, numPartitions: ORDERS_SERVICE.partitions },
              { topic: ORDERS_SERVICE.resultsTopic, numPartitions: ORDERS_SERVICE.partitions },
            ]
          : []),
        ...(withTraffic
          ? [{ topic: audit.topic, numPartitions: SHORT_RETENTION.partitions, configEntries: AUDIT_TOPIC_CONFIGS }]
          : []),
      ]);
      return true;
    });
    await admin.disconnect();

    if (withUi && (!existsSync(path.join(ROOT, '.next', 'BUILD_ID')) || flags.rebuild)) {
      console.log('demo: building the UI (first run only; --rebuild forces it)…');
      const built = await run('npx', ['next', 'build'], { cwd: ROOT, env: childProcessEnv() });
      if (built !== 0) throw new Error('next build failed');
    }
    // The story's workers simulate real work (a database write of up to DEMO_WORKER_LATENCY_MS) and the odd
    // transient failure, so lag, retries and backpressure have something to show, and log warnings only.
    // Watching a real cluster (--no-traffic), the worker runs exactly as configured.
    if (alertReceiver) await alertReceiver.start();
    const alertEnv: Record<string, string> = {
      ...(alertReceiver ? { ALERT_WEBHOOK_URL: `${alertReceiver.url}/alerts` } : {}),
      ...(config.ALERT_DASHBOARD_URL === 'http://127.0.0.1:3000'
        ? { ALERT_DASHBOARD_URL: `http://127.0.0.1:${config.UI_PORT}` }
        : {}),
      // The story lasts minutes: shorter `for`s than in production, so each act's alert fires while it plays.
      ...(config.ALERT_SETTINGS === EMPTY_ALERT_SETTINGS
        ? {
            ALERT_SETTINGS: JSON.stringify({
              '*': {
                'group-status': { forMs: 15_000 },
                'time-lag-objective': { forMs: 15_000 },
                'worker-not-ready': { forMs: 15_000 },
                'sampler-gap': { forMs: 10_000 },
                'retention-risk': { forMs: 10_000 },
              },
            }),
          }
        : {}),
    };
    const workerEnv = (overrides: Record<string, string> = {}) =>
      childProcessEnv(
        withTraffic
          ? {
              WARDEN_FAULT_LATENCY_MS: String(config.DEMO_WORKER_LATENCY_MS),
              WARDEN_FAULT_TRANSIENT_RATE: '0.02',
              // Every injected retry is an info line; the story's cues stay readable, /metrics counts them.
              LOG_LEVEL: 'warn',
              ...alertEnv,
              ...overrides,
            }
          : { ...alertEnv, ...overrides },
      );
    // Workers run as node itself, not behind npx: SIGTERM must reach the worker so it drains, commits and
    // leaves the group at once (a wrapper that exits first gets the group SIGKILLed, and the group then
    // waits a whole session timeout before it reassigns the dead member's partitions).
    const WORKER = ['--import', 'tsx', 'worker/main.ts'];
    children.start('worker', process.execPath, WORKER, { cwd: ROOT, env: workerEnv() });
    if (withUi)
      children.start('ui', 'npx', ['next', 'start', '--hostname', '127.0.0.1', '--port', String(config.UI_PORT)], {
        cwd: ROOT,
        env: childProcessEnv(access.uiEnv()),
      });
    await eventually('the worker to report ready', () => workerReady(config.WORKER_PORT), 90_000);
    if (ordersServiceEnvironment) {
      // Its own database (its table orders_service_order), never Warden's: it reaches Warden over Kafka alone.
      await ensureDatabase(ordersServiceEnvironment.DATABASE_URL!);
      const service = startOrdersService(children, ordersServiceEnvironment, () => shuttingDown);
      await eventually(
        'the orders service to report ready',
        async () => {
          if (service.exitCode !== null || service.signalCode !== null)
            throw new ExitedError('the orders service exited before it was ready (its output is above)');
          return workerReady(ordersServicePort);
        },
        90_000,
        { rethrow: (error) => error instanceof ExitedError },
      );
    }

    const settings: DemoStorySettings = {
      scenario: config.DEMO_SCENARIO,
      steadyRatePerSec: config.DEMO_RATE_PER_SEC,
      surgeRatePerSec: config.DEMO_SURGE_RATE_PER_SEC,
      hotKeyRatePerSec: config.DEMO_HOT_KEY_RATE_PER_SEC,
    };
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    console.log(
      [
        '',
        `demo: up in ${seconds} s`,
        `  kafka     ${config.kafkaBrokers.join(',')}${config.usesLocalBroker ? ' (local broker, scripts/kafka)' : ''}`,
        `  worker    group ${config.WARDEN_GROUP_ID} on ${config.WARDEN_INPUT_TOPIC}; http://127.0.0.1:${config.WORKER_PORT}/readyz and /metrics`,
        withTraffic
          ? `  traffic   ${config.DEMO_SCENARIO} scenario, ~${config.DEMO_RATE_PER_SEC} events/s into ${config.WARDEN_INPUT_TOPIC}`
          : '  traffic   off (--no-traffic): sampling the cluster only',
        ...(ordersServiceEnvironment
          ? [
              `  orders    examples/orders-service, a team's own service on @warden/consumer: group ${ORDERS_SERVICE.groupId} on ${ORDERS_SERVICE.topic} ` +
                `(${ORDERS_SERVICE.partitions} partitions), database ${redactedUrl(ordersServiceEnvironment.DATABASE_URL!)}; http://127.0.0.1:${ordersServicePort}/readyz`,
            ]
          : []),
        withUi ? `  dashboard http://127.0.0.1:${config.UI_PORT}` : '  dashboard off (--no-ui)',
        alertReceiver
          ? `  alerts → ${alertReceiver.url} (every alert the worker sends is printed here; GET lists them)`
          : `  alerts → the receivers in ALERT_WEBHOOK_URL / ALERT_SLACK_WEBHOOK_URL`,
        ...(withUi ? access.banner : []),
        'Press Ctrl-C to stop everything.',
        '',
      ].join('\n'),
    );
    if (!withTraffic) return;

    await producer.connect();
    const traffic = new DemoTraffic(producer, {
      topic: config.WARDEN_INPUT_TOPIC,
      ordersTopic: ordersServiceEnvironment ? ORDERS_SERVICE.topic : null,
      audit: { topic: audit.topic, partitions: SHORT_RETENTION.partitions },
    });
    let secondWorker: ChildProcess | null = null;
    const storyStarted = Date.now();
    let lastTick = storyStarted;
    let lastElapsedSec = -1;
    let busy = false;
    story = setInterval(() => {
      if (busy || shuttingDown) return;
      busy = true;
      const now = Date.now();
      const elapsedSec = ((now - storyStarted) / 1_000) * config.DEMO_STORY_SPEED;
      const plan = planAt(elapsedSec, settings);
      // Without the orders service, its acts (and their cues) are left out.
      const acts = actsStartingBetween(lastElapsedSec, elapsedSec, settings.scenario).filter(
        (act) => ordersServiceEnvironment !== null || !ORDERS_SERVICE_ACTS.has(act.name),
      );
      const storyMs = (now - lastTick) * config.DEMO_STORY_SPEED;
      lastElapsedSec = elapsedSec;
      lastTick = now;
      const step = async () => {
        for (const act of acts) {
          console.log(`demo story @${Math.round(elapsedSec)} s: ${act.cue}`);
          if (act.name === 'hot-key') console.log(`  (key ${HOT_KEY} on partition ${HOT_PARTITION})`);
          if (act.name === 'short-retention') console.log(`  (topic ${audit.topic}, group ${audit.groupId})`);
          if (act.name === 'poison') {
            await traffic.sendPoison();
            console.log(`  (partition ${POISON_PARTITION})`);
          }
          if (act.name === 'malformed-order') {
            await traffic.sendMalformedOrder();
            console.log(`  (partition ${MALFORMED_ORDER_PARTITION} of ${ORDERS_SERVICE.topic})`);
          }
        }
        if (plan.plainConsumer && !plainConsumer.running && !plainConsumerDone) {
          await plainConsumer.start();
        } else if (!plan.plainConsumer && plainConsumer.running) {
          plainConsumerDone = true;
          console.log(
            `demo story @${Math.round(elapsedSec)} s: the plain kafkajs consumer (group ${plainConsumerGroupId(config.WARDEN_GROUP_ID)}) stops: its group turns ERR, STOP "the group has no members; no commit for …" (Overview)`,
          );
          await plainConsumer.stop();
        }
        if (plan.archiver && !archiver.running) await archiver.start();
        if (archiver.running && plan.archiverStalled !== archiver.stalled) {
          if (plan.archiverStalled) archiver.stall();
          else archiver.recover();
        }
        if (plan.secondWorker && secondWorker === null) {
          secondWorker = children.start('worker-2', process.execPath, WORKER, {
            cwd: ROOT,
            env: workerEnv({
              WORKER_PORT: String(config.WORKER_PORT + 1),
              KAFKA_CLIENT_ID: `${config.KAFKA_CLIENT_ID}-2`,
            }),
          });
        } else if (!plan.secondWorker && secondWorker !== null) {
          const leaving = secondWorker;
          secondWorker = null;
          console.log(`demo story @${Math.round(elapsedSec)} s: the second worker leaves (another rebalance)`);
          void children.stop(leaving);
        }
        await traffic.tick(plan, storyMs);
      };
      step()
        .catch((error: Error) => console.error(`demo: traffic: ${error.message} (retrying next tick)`))
        .finally(() => (busy = false));
    }, TICK_MS);
  } catch (error) {
    console.error(`demo: ${(error as Error).message}`);
    await shutdown(1);
  }
}

/**
 * Starts the orders service (ORDERS_SERVICE_NODE_ARGS) in the repository's root with exactly `env`. Its info
 * lines (stdout) are left out of the demo's output; its warnings and errors (stderr: a quarantine, a lost
 * connection) are printed prefixed `orders-service │ `, and an exit the demo did not ask for is said.
 */
function startOrdersService(
  children: ProcessGroup,
  env: Record<string, string>,
  stopping: () => boolean,
): ChildProcess {
  const child = children.start('orders-service', process.execPath, ORDERS_SERVICE_NODE_ARGS, {
    cwd: ROOT,
    // Exactly its own variables (demo-orders-service.ts), none of Warden's.
    env: env as NodeJS.ProcessEnv,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  createInterface({ input: child.stderr! }).on('line', (line) => console.error(`orders-service │ ${line}`));
  child.once('exit', (code, signal) => {
    if (!stopping()) console.error(`demo: the orders service exited (${signal ?? `code ${code}`})`);
  });
  return child;
}

class ExitedError extends Error {}

async function workerReady(port: number): Promise<true | undefined> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/readyz`);
    return response.status === 200 ? true : undefined;
  } catch {
    return undefined;
  }
}

function redactedUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

void main();
