import path from 'node:path';
import { childProcessEnv } from '../../lib/config/program-config';
import { run } from './processes';

const BROKER_SCRIPT = path.join(__dirname, '..', 'kafka', 'broker.sh');

export interface LocalBrokerOptions {
  port: number;
  controllerPort: number;
  /** Broker state directory; the demo and the tests use different ones so they never disturb each other. */
  home?: string;
  /** Wipe the data directory before starting (tests start from an empty cluster). */
  fresh?: boolean;
  /** Extra TLS/SASL listeners (scripts/kafka/README.md); the PLAINTEXT listener on `port` stays. */
  security?: LocalBrokerSecurity;
}

export interface LocalBrokerSecurity {
  /** SASL_PLAINTEXT listener: PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512 for every user. */
  saslPort?: number;
  /** SSL listener that authenticates the broker only. */
  sslPort?: number;
  /** SSL listener that requires a client certificate signed by `caFile`. */
  mtlsPort?: number;
  /** SASL_SSL listener (broker-authenticated TLS, then SASL). */
  saslSslPort?: number;
  /** name -> password, letters, digits, . _ - only. */
  users?: Record<string, string>;
  certFile?: string;
  keyFile?: string;
  caFile?: string;
}

function securityEnv(security: LocalBrokerSecurity | undefined): Record<string, string> {
  if (!security) return {};
  const env: Record<string, string | undefined> = {
    WARDEN_KAFKA_SASL_PORT: security.saslPort?.toString(),
    WARDEN_KAFKA_SSL_PORT: security.sslPort?.toString(),
    WARDEN_KAFKA_MTLS_PORT: security.mtlsPort?.toString(),
    WARDEN_KAFKA_SASL_SSL_PORT: security.saslSslPort?.toString(),
    WARDEN_KAFKA_SASL_USERS: security.users
      ? Object.entries(security.users)
          .map(([name, password]) => `${name}:${password}`)
          .join(',')
      : undefined,
    WARDEN_KAFKA_SSL_CERT_FILE: security.certFile,
    WARDEN_KAFKA_SSL_KEY_FILE: security.keyFile,
    WARDEN_KAFKA_SSL_CA_FILE: security.caFile,
  };
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

function brokerEnv(options: LocalBrokerOptions) {
  return childProcessEnv({
    WARDEN_KAFKA_PORT: String(options.port),
    WARDEN_KAFKA_CONTROLLER_PORT: String(options.controllerPort),
    WARDEN_KAFKA_FRESH: options.fresh ? '1' : '0',
    ...(options.home ? { WARDEN_KAFKA_HOME: options.home } : {}),
    ...securityEnv(options.security),
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
