import type { Admin, ITopicConfig } from 'kafkajs';
import type { ConsumerLogger } from '../kafkajs/consumer-types.js';
import { controlTopicNames } from './protocol.js';

// The two topics of a control prefix, created when missing. Creation is a convenience, never a condition: a
// broker that refuses it (no Create permission) or is away is logged, and whoever runs the cluster creates
// the topics with these settings instead (docs/control-protocol.md).

export const STATE_TOPIC_PARTITIONS = 6;
export const COMMAND_TOPIC_RETENTION_MS = 24 * 60 * 60 * 1000;

/** The admin calls topic creation makes (a kafkajs `Admin` has them). */
export type ControlTopicsAdmin = Pick<Admin, 'createTopics' | 'listTopics'>;

export type EnsureTopicsResult = 'created' | 'existed' | 'refused' | 'failed';

/**
 * The topic settings: the state topic is compacted (the newest state of each instance is the truth), the
 * command topic has one partition (every reader sees commands and acknowledgements in one order) and keeps
 * them a day. Replication: the broker's default.
 */
export function controlTopicConfigs(prefix: string): ITopicConfig[] {
  const names = controlTopicNames(prefix);
  return [
    {
      topic: names.state,
      numPartitions: STATE_TOPIC_PARTITIONS,
      replicationFactor: -1,
      configEntries: [{ name: 'cleanup.policy', value: 'compact' }],
    },
    {
      topic: names.commands,
      numPartitions: 1,
      replicationFactor: -1,
      configEntries: [
        { name: 'cleanup.policy', value: 'delete' },
        { name: 'retention.ms', value: String(COMMAND_TOPIC_RETENTION_MS) },
      ],
    },
  ];
}

/**
 * Creates whichever of the prefix's two topics is missing. Never throws: 'refused' when the broker does not
 * allow it, 'failed' on any other error, each logged.
 */
export async function ensureControlTopics(
  admin: ControlTopicsAdmin,
  prefix: string,
  logger?: ConsumerLogger,
): Promise<EnsureTopicsResult> {
  let wanted = controlTopicConfigs(prefix);
  try {
    const existing = new Set(await admin.listTopics());
    wanted = wanted.filter((config) => !existing.has(config.topic));
    if (wanted.length === 0) return 'existed';
  } catch {
    // Listing may be refused where creating is allowed: try to create both; existing ones are fine.
  }
  const topics = wanted.map((config) => config.topic);
  try {
    const created = await admin.createTopics({ topics: wanted, waitForLeaders: false });
    if (created) logger?.info({ topics }, 'control topics created');
    return created ? 'created' : 'existed';
  } catch (error) {
    if (isAuthorizationFailure(error)) {
      logger?.warn(
        { topics, err: error },
        'not allowed to create the control topics: create them as docs/control-protocol.md says, or set control.createTopics to false',
      );
      return 'refused';
    }
    logger?.warn({ topics, err: error }, 'could not create the control topics; the control plane retries');
    return 'failed';
  }
}

/** Whether the error, or any error it wraps, is the broker's refusal to authorize the request. */
function isAuthorizationFailure(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const e = error as { type?: unknown; errors?: unknown; originalError?: unknown; cause?: unknown };
  if (typeof e.type === 'string' && e.type.endsWith('AUTHORIZATION_FAILED')) return true;
  const nested = [...(Array.isArray(e.errors) ? e.errors : []), e.originalError, e.cause];
  return nested.some((inner) => isAuthorizationFailure(inner, depth + 1));
}
