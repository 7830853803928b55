// npm run demo - everything on embedded defaults: the local broker (unless KAFKA_BROKERS is set), the
// database and its migrations, the worker, a small traffic generator and the UI. Ctrl-C stops every
// process started here, the broker included when this script started it.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { childProcessEnv, loadConfig } from '../lib/config';
import { createKafka } from '../worker/kafka/client';
import { ensureTopics } from '../worker/kafka/topics';
import { startLocalBroker, stopLocalBroker, localBrokerRunning } from './lib/broker';
import { demoAccess } from './lib/demo-access';
import { migrateDatabase } from './lib/database';
import { ProcessGroup, run } from './lib/processes';

const ROOT = path.resolve(__dirname, '..');

async function main(): Promise<void> {
  const config = loadConfig();
  // Sign-in for the dashboard: demo users with printed passwords unless WARDEN_USERS is set.
  const access = demoAccess(config);
  const started = Date.now();
  const children = new ProcessGroup();
  const broker = { port: config.WARDEN_KAFKA_PORT, controllerPort: config.WARDEN_KAFKA_PORT + 1 };
  const brokerStartedHere = config.usesLocalBroker && !(await localBrokerRunning(broker));
  let shuttingDown = false;

  const shutdown = async (code: number) => {
    if (shuttingDown) return;
    shuttingDown = true;
    console.log('\ndemo: stopping everything it started…');
    await children.stopAll();
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

    const admin = createKafka({ brokers: config.kafkaBrokers, clientId: 'warden-demo' }).admin();
    await admin.connect();
    await ensureTopics(admin, [
      { topic: config.WARDEN_INPUT_TOPIC, numPartitions: config.WARDEN_INPUT_PARTITIONS },
      { topic: config.WARDEN_RESULTS_TOPIC, numPartitions: config.WARDEN_INPUT_PARTITIONS },
    ]);
    await admin.disconnect();

    if (!existsSync(path.join(ROOT, '.next', 'BUILD_ID')) || process.argv.includes('--rebuild')) {
      console.log('demo: building the UI (first run only; --rebuild forces it)…');
      const built = await run('npx', ['next', 'build'], { cwd: ROOT, env: childProcessEnv() });
      if (built !== 0) throw new Error('next build failed');
    }
    const env = childProcessEnv();
    children.start('worker', 'npx', ['tsx', 'worker/main.ts'], { cwd: ROOT, env });
    children.start('traffic', 'npx', ['tsx', 'scripts/traffic.ts'], { cwd: ROOT, env });
    children.start('ui', 'npx', ['next', 'start', '--hostname', '127.0.0.1', '--port', String(config.UI_PORT)], { cwd: ROOT, env: childProcessEnv(access.uiEnv()) });

    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    console.log(
      [
        '',
        `demo: up in ${seconds} s`,
        `  kafka     ${config.kafkaBrokers.join(',')}${config.usesLocalBroker ? ' (local broker, scripts/kafka)' : ''}`,
        `  worker    group ${config.WARDEN_GROUP_ID} on ${config.WARDEN_INPUT_TOPIC}; health http://127.0.0.1:${config.WORKER_PORT}/readyz`,
        `  traffic   ~${config.DEMO_RATE_PER_SEC} events/s into ${config.WARDEN_INPUT_TOPIC}`,
        `  dashboard http://127.0.0.1:${config.UI_PORT}`,
        ...access.banner,
        'Press Ctrl-C to stop everything.',
        '',
      ].join('\n'),
    );
  } catch (error) {
    console.error(`demo: ${(error as Error).message}`);
    await shutdown(1);
  }
}

function redactedUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

void main();
