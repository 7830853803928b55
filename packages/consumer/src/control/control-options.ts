import { controlTopicNames, type ControlTopicNames } from './protocol.js';

// The `control` option of createConsumer and its resolved settings. Invalid settings fail at construction with
// a RangeError naming the option, never later in a running consumer.

export interface ControlOptions {
  /** Turns the control plane on: the topics are `<prefix>.state` and `<prefix>.commands` (Warden's default prefix: 'warden-control'). */
  topicPrefix: string;
  /** How the instance names itself. Default: the group id. */
  clientId?: string;
  /** Unique per running process. Default: `<clientId>@<host name>/<pid>`. */
  instanceId?: string;
  /** How often the whole state is published while running (and soon after every change). Default 5000. */
  stateIntervalMs?: number;
  /** HMAC key: commands, and peers' acknowledgements, must be signed with it (control/signing.ts). */
  commandKey?: string | Buffer;
  /** Create the two topics when missing (a refusal of the broker is logged). Default true. */
  createTopics?: boolean;
  /** How a skip's outcome names where the consumer's `deadLetter` port copies to (its topic, say). */
  deadLetterName?: string;
}

export interface ControlSettings {
  topics: ControlTopicNames;
  topicPrefix: string;
  clientId: string;
  instanceId: string;
  host: string;
  pid: number;
  stateIntervalMs: number;
  commandKey: string | Buffer | null;
  createTopics: boolean;
  deadLetterName: string;
}

export const DEFAULT_CONTROL_TOPIC_PREFIX = 'warden-control';
export const DEFAULT_STATE_INTERVAL_MS = 5_000;
/** The protocol's lower bound of a state interval. */
export const MIN_STATE_INTERVAL_MS = 100;
/** Longest group id, client id and instance id the protocol carries. */
const MAX_NAME_CHARS = 512;
const TOPIC_NAME = /^[a-zA-Z0-9._-]+$/;
const MAX_TOPIC_CHARS = 249;

/** Applies the defaults and checks every value; throws a RangeError naming the option it cannot honour. */
export function resolveControlSettings(
  options: ControlOptions,
  context: { groupId: string; host: string; pid: number },
): ControlSettings {
  const { topicPrefix } = options;
  if (typeof topicPrefix !== 'string' || !TOPIC_NAME.test(topicPrefix))
    throw new RangeError(
      `control.topicPrefix must be a topic name of letters, digits, '.', '_' and '-', got ${JSON.stringify(topicPrefix)}`,
    );
  const topics = controlTopicNames(topicPrefix);
  if (topics.commands.length > MAX_TOPIC_CHARS || topics.state.length > MAX_TOPIC_CHARS)
    throw new RangeError(`control.topicPrefix is too long: ${topics.commands} exceeds ${MAX_TOPIC_CHARS} characters`);
  if (context.groupId.length === 0 || context.groupId.length > MAX_NAME_CHARS)
    throw new RangeError(`the control plane needs a groupId of 1 to ${MAX_NAME_CHARS} characters`);
  const clientId = options.clientId ?? context.groupId;
  if (clientId.length > MAX_NAME_CHARS)
    throw new RangeError(`control.clientId must be at most ${MAX_NAME_CHARS} characters`);
  const instanceId = options.instanceId ?? `${clientId}@${context.host}/${context.pid}`;
  if (instanceId.length === 0 || instanceId.length > MAX_NAME_CHARS)
    throw new RangeError(
      `control.instanceId must be 1 to ${MAX_NAME_CHARS} characters${options.instanceId === undefined ? ' (set it: the default one is too long)' : ''}`,
    );
  const stateIntervalMs = options.stateIntervalMs ?? DEFAULT_STATE_INTERVAL_MS;
  if (!Number.isInteger(stateIntervalMs) || stateIntervalMs < MIN_STATE_INTERVAL_MS)
    throw new RangeError(
      `control.stateIntervalMs must be an integer of at least ${MIN_STATE_INTERVAL_MS}, got ${stateIntervalMs}`,
    );
  const commandKey = options.commandKey ?? null;
  if (commandKey !== null && commandKey.length === 0)
    throw new RangeError('control.commandKey must not be empty (leave it out to accept unsigned commands)');
  return {
    topics,
    topicPrefix,
    clientId,
    instanceId,
    host: context.host,
    pid: context.pid,
    stateIntervalMs,
    commandKey,
    createTopics: options.createTopics ?? true,
    deadLetterName: options.deadLetterName ?? 'the dead-letter port',
  };
}
