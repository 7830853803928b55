import { Kafka, logLevel, type KafkaConfig, type SASLOptions } from 'kafkajs';
import type { ConnectionOptions } from 'node:tls';
import type { KafkaSecuritySettings } from './security';

export interface KafkaClientOptions extends KafkaSecurityOptions {
  brokers: string[];
  clientId: string;
  /** kafkajs logs through this; by default only errors, to stderr as JSON lines. */
  logLevel?: 'nothing' | 'error' | 'warn' | 'info' | 'debug';
  /** Retries of each client request (default 8); the start-up check uses 0 and retries by itself. */
  retries?: number;
}

/** TLS and SASL as kafkajs takes them; absent: plaintext, no authentication. */
export interface KafkaSecurityOptions {
  ssl?: ConnectionOptions | boolean;
  sasl?: SASLOptions;
}

/**
 * The kafkajs `ssl` / `sasl` options of the configured cluster (KAFKA_SSL*, KAFKA_SASL_*), to spread into
 * createKafka's options by every caller that connects to it. TLS always verifies the broker's certificate:
 * against KAFKA_SSL_CA_FILE when set, else against the system's CAs; the client certificate is sent when
 * KAFKA_SSL_CERT_FILE/KAFKA_SSL_KEY_FILE are set. The returned object holds the password and key in the
 * clear (kafkajs needs them so): never log it.
 */
export function kafkaSecurityFrom(config: { kafkaSecurity: KafkaSecuritySettings }): KafkaSecurityOptions {
  const { tls, sasl } = config.kafkaSecurity;
  const options: KafkaSecurityOptions = {};
  if (tls) {
    options.ssl = {
      rejectUnauthorized: true,
      ...(tls.ca ? { ca: tls.ca } : {}),
      ...(tls.cert && tls.key ? { cert: tls.cert, key: tls.key.reveal() } : {}),
    };
  }
  if (sasl) {
    const credentials = { username: sasl.username, password: sasl.password.reveal() };
    options.sasl =
      sasl.mechanism === 'plain'
        ? { mechanism: 'plain', ...credentials }
        : sasl.mechanism === 'scram-sha-256'
          ? { mechanism: 'scram-sha-256', ...credentials }
          : { mechanism: 'scram-sha-512', ...credentials };
  }
  return options;
}

const LEVELS = {
  nothing: logLevel.NOTHING,
  error: logLevel.ERROR,
  warn: logLevel.WARN,
  info: logLevel.INFO,
  debug: logLevel.DEBUG,
} as const;

/**
 * Broker answers kafkajs logs at error level although they are part of normal operation and kafkajs retries
 * them itself: a group rebalancing (every join and leave), a coordinator moving or still loading (a broker
 * start or failover). Printed, they bury the errors that matter; a real failure still surfaces as a thrown
 * error or a CRASH event.
 */
const EXPECTED_RESPONSE_ERRORS = [
  'The group is rebalancing, so a rejoin is needed',
  "The coordinator is loading and hence can't process requests for this group",
  'The group coordinator is not available',
  'This is not the correct coordinator for this group',
];

/** Whether a kafkajs log line is a broker answer of normal operation that kafkajs retries (never printed). */
export function isExpectedKafkajsResponse(namespace: string, log: Readonly<Record<string, unknown>>): boolean {
  const error = log['error'];
  return namespace === 'Connection' && typeof error === 'string' && EXPECTED_RESPONSE_ERRORS.includes(error);
}

export function createKafka(options: KafkaClientOptions): Kafka {
  const config: KafkaConfig = {
    brokers: options.brokers,
    clientId: options.clientId,
    logLevel: LEVELS[options.logLevel ?? 'error'],
    // Retries of the client's own requests; application-level retries live in the consumer core.
    retry: { initialRetryTime: 100, retries: options.retries ?? 8, maxRetryTime: 5_000 },
    connectionTimeout: 3_000,
    ...(options.ssl !== undefined ? { ssl: options.ssl } : {}),
    ...(options.sasl !== undefined ? { sasl: options.sasl } : {}),
    logCreator:
      () =>
      ({ namespace, level, log }) => {
        if (isExpectedKafkajsResponse(namespace, log)) return;
        const { message, ...extra } = log;
        process.stderr.write(
          `${JSON.stringify({ source: 'kafkajs', level: logLevel[level], namespace, msg: message, ...extra })}\n`,
        );
      },
  };
  return new Kafka(config);
}

/** A client of one configured cluster (lib/kafka/cluster-settings.ts): its brokers and its own TLS and SASL. */
export function createClusterKafka(
  cluster: { brokers: string[]; security: KafkaSecuritySettings },
  clientId: string,
): Kafka {
  return createKafka({ brokers: cluster.brokers, clientId, ...kafkaSecurityFrom({ kafkaSecurity: cluster.security }) });
}
