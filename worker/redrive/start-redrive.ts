import type { Kafka } from 'kafkajs';
import type { WorkerConfig } from '../config';
import type { Database } from '../../lib/db';
import { connectRecordSource } from '../../lib/kafka/partition-records';
import type { Clock } from '@warden/consumer';
import { PeriodicTask } from '../periodic-task';
import type { ConsumerLogger } from '../shared/worker-types';
import { RedriveRunner } from './redrive-runner';
import { kafkaRedriveTransport } from './redrive-transport';

const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * Runs redrive jobs in this worker: a round every COMMAND_POLL_INTERVAL_MS claims a runnable job and runs it
 * with a transactional producer of the job's own (worker/redrive/redrive-runner.ts states the protocol).
 * stop() ends the running job at its next batch boundary and hands it back for another worker.
 */
export async function startRedrive(options: {
  config: WorkerConfig;
  kafka: Kafka;
  db: Database;
  /** Default: the system clock (the runner's rate waits and leases run on it). */
  clock?: Clock;
  instanceId: string;
  logger: ConsumerLogger;
}): Promise<{ stop: () => Promise<void> }> {
  const source = await connectRecordSource(options.kafka);
  const transport = kafkaRedriveTransport(options.kafka);
  const runner = new RedriveRunner({
    db: options.db,
    source,
    transport,
    clock: options.clock ?? systemClock,
    instanceId: options.instanceId,
    leaseMs: options.config.REDRIVE_LEASE_MS,
    onProgress: (job) =>
      options.logger.info(
        { redriveId: job.id.toString(), sent: job.sent, skipped: job.skipped, status: job.status },
        'redrive progress',
      ),
    onFenced: (jobId) =>
      options.logger.warn(
        { redriveId: jobId.toString() },
        'redrive job taken over by another worker (this worker stalled past REDRIVE_LEASE_MS); stopped working on it',
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
      await transport.close();
      await source.close();
    },
  };
}
