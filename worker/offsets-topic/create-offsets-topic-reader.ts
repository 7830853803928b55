import type { Kafka } from 'kafkajs';
import type { WorkerConfig } from '../config';
import type { Database } from '../../lib/db';
import { controlGroupPrefix, offsetsReaderGroupId } from '../shared/internal-groups';
import type { ConsumerLogger } from '../shared/worker-types';
import { OffsetsTopicReader } from './offsets-topic-reader';

/** The offsets-topic reader as the worker runs it; null when SAMPLER_COMMIT_SOURCE is 'sampled'. */
export function createOffsetsTopicReader(options: {
  config: WorkerConfig;
  kafka: Kafka;
  db: Database;
  logger?: ConsumerLogger;
}): OffsetsTopicReader | null {
  const { config } = options;
  if (config.SAMPLER_COMMIT_SOURCE === 'sampled') return null;
  return new OffsetsTopicReader({
    kafka: options.kafka,
    db: options.db,
    readerGroupId: offsetsReaderGroupId(config),
    filter: {
      include: config.SAMPLER_GROUP_INCLUDE,
      exclude: config.SAMPLER_GROUP_EXCLUDE,
      ownGroupId: config.WARDEN_GROUP_ID,
      hiddenGroupPrefixes: [controlGroupPrefix(config)],
    },
    mode: config.SAMPLER_COMMIT_SOURCE,
    logger: options.logger,
  });
}
