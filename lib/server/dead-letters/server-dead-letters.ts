import 'server-only';
import { loadDashboardConfig } from '../dashboard-config';
import { connectRecordSource, type RecordSource } from '../../kafka/partition-records';
import type { Role } from '../../auth/credentials';
import { withServerKafka } from '../offset-reset/server-kafka';
import { canSeePayloads } from '../payload-access';
import { DEFAULT_CLUSTER } from '../../schemas/values';

/** The dead-letter topic the dashboard browses (WARDEN_DLQ_TOPIC), on the one cluster it reads. */
export function serverDeadLetterTopic() {
  const config = loadDashboardConfig();
  return { cluster: DEFAULT_CLUSTER, topic: config.WARDEN_DLQ_TOPIC, ratePerSec: config.REDRIVE_RATE_PER_SEC };
}

/** Runs `work` with a fresh record source on the configured cluster (503 when it cannot be reached). */
export function withRecordSource<T>(work: (source: RecordSource) => Promise<T>): Promise<T> {
  return withServerKafka(connectRecordSource, work);
}

/** WARDEN_PAYLOAD_ACCESS for a caller of `role`. */
export function serverPayloadAccess(role: Role) {
  const access = loadDashboardConfig().WARDEN_PAYLOAD_ACCESS;
  return { payloadAccess: access, showPayloads: canSeePayloads(access, role) };
}
