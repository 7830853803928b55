import path from 'node:path';
import { childProcessEnv } from '../../lib/config';
import { run } from './processes';

const BROKER_SCRIPT = path.join(__dirname, '..', 'kafka', 'broker.sh');

export interface LocalBrokerOptions {
  port: number;
  controllerPort: number;
  /** Broker state directory; the demo and the tests use different ones so they never disturb each other. */
  home?: string;
  /** Wipe the data directory before starting (tests start from an empty cluster). */
  fresh?: boolean;
}

function brokerEnv(options: LocalBrokerOptions) {
  return childProcessEnv({
    WARDEN_KAFKA_PORT: String(options.port),
    WARDEN_KAFKA_CONTROLLER_PORT: String(options.controllerPort),
    WARDEN_KAFKA_FRESH: options.fresh ? '1' : '0',
    ...(options.home ? { WARDEN_KAFKA_HOME: options.home } : {}),
  });
}

async function brokerCommand(command: 'start' | 'stop', options: LocalBrokerOptions): Promise<void> {
  const code = await run('bash', [BROKER_SCRIPT, command], { env: brokerEnv(options) });
  if (code !== 0) throw new Error(`scripts/kafka/broker.sh ${command} failed (exit ${code})`);
}

/** Starts the bundled broker (idempotent: an already running one is reused) and returns its address. */
export async function startLocalBroker(options: LocalBrokerOptions): Promise<string> {
  await brokerCommand('start', options);
  return `127.0.0.1:${options.port}`;
}

export function stopLocalBroker(options: LocalBrokerOptions): Promise<void> {
  return brokerCommand('stop', options);
}

/** Whether the bundled broker with these options is already running (its status exits 0). */
export async function localBrokerRunning(options: LocalBrokerOptions): Promise<boolean> {
  return (await run('bash', [BROKER_SCRIPT, 'status'], { env: brokerEnv(options), stdio: 'ignore' })) === 0;
}
