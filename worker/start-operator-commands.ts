import type { Admin, Producer } from 'kafkajs';
import type { WorkerConfig } from '../lib/config';
import type { Database } from '../lib/db';
import type { TopicPartition } from '@warden/consumer';
import type { Logger } from './logger';
import { createDeadLetterWriter } from './pipeline/dead-letter';
import type { ActionCore } from './commands/execute-operator-action';
import { createKafkaActionPorts } from './commands/kafka-action-ports';
import { OperatorActionListener } from './commands/operator-action-listener';
import { OperatorActionPoller } from './commands/operator-action-poller';
import { workerInstanceId } from './shared/worker-types';

/**
 * Starts applying operator actions in the worker: the poller (every COMMAND_POLL_INTERVAL_MS) and the NOTIFY
 * listener that wakes it. Stop it before the consumer: an action must not run on a draining core.
 */
export async function startOperatorCommands(options: {
  config: WorkerConfig;
  db: Database;
  admin: Admin;
  producer: Producer;
  consumer: { core: ActionCore; readonly assignment: readonly TopicPartition[] };
  logger: Logger;
  /** Told of every action this instance applied (metrics). */
  onApplied?: (action: string, status: string) => void;
}): Promise<{ stop: () => Promise<void> }> {
  const { config, logger, consumer } = options;
  // The same id the worker's commit-prefix rows carry, so the audit names the instance they show.
  const instanceId = workerInstanceId(config.KAFKA_CLIENT_ID);
  const poller = new OperatorActionPoller({
    db: options.db,
    groupId: config.WARDEN_GROUP_ID,
    instanceId,
    intervalMs: config.COMMAND_POLL_INTERVAL_MS,
    expireAfterMs: config.COMMAND_EXPIRE_AFTER_MS,
    assignment: () => consumer.assignment,
    ports: createKafkaActionPorts({
      admin: options.admin,
      core: consumer.core,
      deadLetter: {
        topic: config.WARDEN_DLQ_TOPIC,
        write: createDeadLetterWriter(options.producer, config.WARDEN_DLQ_TOPIC),
      },
    }),
    onError: (error) => logger.warn({ err: error }, 'operator action round failed; the next round runs on schedule'),
    onApplied: (action, status, outcome) => {
      logger.info(
        {
          actionId: action.id.toString(),
          action: action.action,
          topic: action.topic,
          partition: action.partition,
          status,
          outcome,
        },
        'operator action',
      );
      options.onApplied?.(action.action, status);
    },
  });
  const listener = new OperatorActionListener({
    databaseUrl: config.DATABASE_URL,
    groupId: config.WARDEN_GROUP_ID,
    onNotify: () => poller.kick(),
    onError: (error) => logger.warn({ err: error }, 'operator action listener lost its connection; polling continues'),
  });
  poller.start();
  await listener
    .start()
    .catch((error: Error) => logger.warn({ err: error }, 'operator action listener did not start; polling only'));
  return {
    stop: async () => {
      await listener.stop();
      await poller.stop();
    },
  };
}
