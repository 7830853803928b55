import { Kafka, logLevel, type KafkaConfig } from 'kafkajs';

export interface KafkaClientOptions {
  brokers: string[];
  clientId: string;
  /** kafkajs logs through this; by default only errors, to stderr as JSON lines. */
  logLevel?: 'nothing' | 'error' | 'warn' | 'info' | 'debug';
}

const LEVELS = { nothing: logLevel.NOTHING, error: logLevel.ERROR, warn: logLevel.WARN, info: logLevel.INFO, debug: logLevel.DEBUG } as const;

export function createKafka(options: KafkaClientOptions): Kafka {
  const config: KafkaConfig = {
    brokers: options.brokers,
    clientId: options.clientId,
    logLevel: LEVELS[options.logLevel ?? 'error'],
    // Retries of the client's own requests; application-level retries live in the consumer core.
    retry: { initialRetryTime: 100, retries: 8, maxRetryTime: 5_000 },
    connectionTimeout: 3_000,
    logCreator: () => ({ namespace, level, log }) => {
      const { message, ...extra } = log;
      process.stderr.write(`${JSON.stringify({ source: 'kafkajs', level: logLevel[level], namespace, msg: message, ...extra })}\n`);
    },
  };
  return new Kafka(config);
}
