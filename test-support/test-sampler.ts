import type { Kafka } from 'kafkajs';
import type { Database } from '../lib/db';
import { ClusterReader } from '../lib/kafka/cluster-reader';
import { DEFAULT_CLUSTER } from '../lib/kafka/cluster-settings';
import { LagSampler, type LagSamplerOptions } from '../worker/sampler/lag-sampler';

/**
 * A LagSampler of the groups matching `include`, without a leader lock, with fast test settings: every log-end
 * point kept, exact time lag read at every round. Tests call sampleOnce() themselves.
 */
export function testSampler(
  kafka: Kafka,
  db: Database,
  include: RegExp,
  overrides: { instanceId?: string; cluster?: string; state?: Partial<LagSamplerOptions['state']> } = {},
): LagSampler {
  return new LagSampler({
    cluster: overrides.cluster ?? DEFAULT_CLUSTER,
    reader: new ClusterReader({ kafka, ownGroupId: 'warden-unrelated', include, exclude: null }),
    db,
    lock: null,
    instanceId: overrides.instanceId ?? 'sampler-it',
    intervalMs: 500,
    maxBackoffMs: 2_000,
    state: {
      timeLagPoints: 60,
      timeLagSpacingMs: 0,
      rateWindowMs: 60_000,
      exactTimeLagIntervalMs: 0,
      exactTimeLagMaxPartitions: 100,
      ...overrides.state,
    },
    retention: { rawDays: 7, rollupDays: 90 },
  });
}
