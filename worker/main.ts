// npm run worker - hosts the default document pipeline on the partition-isolating consumer, the lag
// sampler and the health endpoints. SIGTERM/SIGINT drain and commit, then exit 0; a second signal forces
// exit 1.
import { ConfigError } from '../lib/config/program-config';
import { loadWorkerConfig } from './config';
import { createLogger } from './logger';
import { HandlerModuleError } from './hosted-handler';
import { KafkaStartupError } from './kafka/startup-check';
import { WardenWorker } from './worker';

const SHUTDOWN_DEADLINE_MS = 15_000;
/** The drain deadline and every bounded step (5 s each), with room to spare. */
const HARD_EXIT_AFTER_MS = SHUTDOWN_DEADLINE_MS + 45_000;

async function main(): Promise<void> {
  let config;
  try {
    config = loadWorkerConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config.LOG_LEVEL);
  const worker = new WardenWorker(config, logger);

  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) {
      logger.warn({ signal }, 'second signal: exiting without draining');
      process.exit(1);
    }
    logger.info({ signal, deadlineMs: SHUTDOWN_DEADLINE_MS }, 'stopping: draining in-flight work, then committing');
    // A supervisor must never wait on a shutdown that hangs: past the drain deadline and the observers' limits,
    // the worker exits 1 (what is committed stays committed; the rest is redelivered).
    setTimeout(() => {
      logger.error(
        { limitMs: HARD_EXIT_AFTER_MS, step: worker.currentShutdownStep() },
        'shutdown did not finish in time: exiting without it',
      );
      process.exit(1);
    }, HARD_EXIT_AFTER_MS).unref();
    worker.stop(SHUTDOWN_DEADLINE_MS).then(
      () => process.exit(0),
      (error: Error) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  try {
    await worker.start();
  } catch (error) {
    // A handler module that cannot be hosted is a configuration problem, like a bad variable: exit 2.
    if (error instanceof HandlerModuleError) {
      logger.fatal(`worker failed to start: ${error.message}`);
      await worker.stop(1_000).catch(() => undefined);
      process.exit(2);
    }
    // A Kafka configuration problem (credentials, certificates, listener) is one line naming the setting.
    if (error instanceof KafkaStartupError)
      logger.fatal({ settings: error.settings }, `worker failed to start: ${error.message}`);
    else logger.error({ err: error }, 'worker failed to start');
    await worker.stop(1_000).catch(() => undefined);
    process.exit(1);
  }
}

void main();
