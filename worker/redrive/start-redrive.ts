import type { Kafka, Producer } from 'kafkajs';
import type { WorkerConfig } from '../config';
import type { Database } from '../../lib/db';
import { connectRecordSource } from '../../lib/kafka/partition-records';
import type { Clock } from '@warden/consumer';
import { PeriodicTask } from '../periodic-task';
import type { ConsumerLogger } from '../shared/worker-types';
import { RedriveRunner, type RedriveSend } from './redrive-runner';

const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** A RedriveSend over a kafkajs producer (the worker's idempotent one): acks=all, explicit partitions. */
export function producerSend(producer: Producer): RedriveSend {
  return async (topic, messages) => {
    const results = await producer.send({ topic, acks: -1, messages });
    return results.map((r) => ({ partition: r.partition, baseOffset: BigInt(r.baseOffset ?? '-1') }));
  };
}

/**
 * Runs redrive jobs in this worker: a round every COMMAND_POLL_INTERVAL_MS claims a runnable job and runs it
 * (worker/redrive/redrive-runner.ts states the no-double-send protocol). Stop it before the producer: the
 * running job stops at its next batch boundary and is handed back for another worker.
 */
export async function startRedrive(options: {
  config: WorkerConfig;
  kafka: Kafka;
  db: Database;
  producer: Producer;
  /** Default: the system clock (the runner's rate waits and leases run on it). */
  clock?: Clock;
  instanceId: string;
  logger: ConsumerLogger;
}): Promise<{ stop: () => Promise<void> }> {
  const source = await connectRecordSource(options.kafka);
  const runner = new RedriveRunner({
    db: options.db,
    source,
    send: producerSend(options.producer),
    clock: options.clock ?? systemClock,
    instanceId: options.instanceId,
    leaseMs: options.config.REDRIVE_LEASE_MS,
    onProgress: (job) =>
      options.logger.info(
        { redriveId: job.id.toString(), sent: job.sent, skipped: job.skipped, status: job.status },
        'redrive progress',
      ),
  });
  const task = new PeriodicTask(
    async () => {
      // A job ran: look for the next one at once.
      if (await runner.round()) return 0;
    },
    {
      intervalMs: options.config.COMMAND_POLL_INTERVAL_MS,
      onError: (error) => options.logger.warn({ err: error }, 'redrive round failed; the job is marked failed'),
    },
  );
  task.start();
  return {
    stop: async () => {
      runner.requestStop();
      await task.stop();
      await source.close();
    },
  };
}
