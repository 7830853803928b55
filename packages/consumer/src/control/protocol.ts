import { z } from 'zod';

// The control protocol between a consumer that embeds this package and Warden's worker, carried by Kafka
// itself (docs/control-protocol.md describes it for implementers in other languages; its JSON Schema is
// generated from these definitions). Two topics per prefix:
// - `<prefix>.state` (compacted): each consumer instance publishes its whole state under the key
//   `<groupId>/<instanceId>`: identity, readiness, commit-prefix state, quarantine holds (with capped previews),
//   measured rebalance stops and its recent command outcomes. The newest record of a key is the truth; a clean
//   stop publishes status 'stopped'. Records of one instance share a key, so they stay in order.
// - `<prefix>.commands` (one partition, time retention): operator commands relayed by Warden's worker, and
//   every instance's acknowledgement of a command it applied, so a new owner of a partition knows the old one
//   already did. Keyed `<groupId>/<topic>/<partition>`.
// Every message carries `v` (the protocol version) and `type`. A reader refuses a message of another version,
// of an unknown type, larger than its limit or not matching its schema, and goes on with the next one.

export const CONTROL_PROTOCOL_VERSION = 1;

/** Longest message on the command topic a reader accepts (a command or an acknowledgement is under 1 KiB). */
export const MAX_COMMAND_MESSAGE_BYTES = 16 * 1024;
/** Longest state message a reader accepts; the publisher drops previews, then partitions, to stay under it. */
export const MAX_STATE_MESSAGE_BYTES = 512 * 1024;
/** Longest record key, value or header preview in a hold (characters, after escaping). */
export const HOLD_PREVIEW_MAX_CHARS = 2_048;
/** Most command outcomes and rebalance stops an instance repeats in each state message. */
export const MAX_RECENT_ACKS = 50;
export const MAX_RECENT_REBALANCES = 20;
/** The header that carries a command's or an acknowledgement's HMAC (control/signing.ts). */
export const SIGNATURE_HEADER = 'warden-signature';

export interface ControlTopicNames {
  state: string;
  commands: string;
}

/** The two topics of a prefix. */
export function controlTopicNames(prefix: string): ControlTopicNames {
  return { state: `${prefix}.state`, commands: `${prefix}.commands` };
}

/** Key of an instance's state records. */
export function stateKey(groupId: string, instanceId: string): string {
  return `${groupId}/${instanceId}`;
}

/** Key of a command and of its acknowledgements: every message about one partition lands in order. */
export function commandKey(command: { groupId: string; topic: string; partition: number }): string {
  return `${command.groupId}/${command.topic}/${command.partition}`;
}

const ZOffset = z.string().regex(/^\d{1,19}$/, 'an offset is a decimal int64');
const ZText = (max: number) => z.string().max(max);
const ZName = ZText(512).min(1);
const ZTopic = ZText(249).min(1);
const ZPartition = z.number().int().min(0).max(2_147_483_647);
const ZCount = z.number().int().min(0);
const ZEpochMs = z.number().int().min(0);
const ZTopicPartition = z.object({ topic: ZTopic, partition: ZPartition });

export const ZOperatorCommandAction = z.enum(['resume', 'skip', 'seek']);
export const ZCommandStatus = z.enum(['done', 'failed', 'rejected']);

/** Where a partition's commit prefix stands and what holds it back (the dashboard's commit-prefix columns). */
export const ZPartitionState = z.object({
  topic: ZTopic,
  partition: ZPartition,
  /** The last commit the broker acknowledged ("next to read"); null before the first. */
  watermark: ZOffset.nullable(),
  highestCompleted: ZOffset.nullable(),
  inFlight: ZCount,
  completedUncommitted: ZCount,
  buffered: ZCount,
  bufferedBytes: ZCount,
  oldestUnfinishedOffset: ZOffset.nullable(),
  oldestUnfinishedAgeMs: ZCount.nullable(),
  /** Fetching paused (backpressure or a quarantine). */
  paused: z.boolean(),
});

/** A partition held at a record an operator must decide about. */
export const ZHold = z.object({
  topic: ZTopic,
  partition: ZPartition,
  offset: ZOffset,
  /** When this hold began, on the instance's clock (a new hold of the same record has a newer time). */
  sinceMs: ZEpochMs,
  reason: ZText(4_096),
  errorClass: ZText(256),
  attempts: ZCount,
  /** Escaped, capped previews (never raw bytes); null for a null key or value. */
  key: ZText(HOLD_PREVIEW_MAX_CHARS + 1).nullable(),
  value: ZText(HOLD_PREVIEW_MAX_CHARS + 1).nullable(),
  headers: z.record(z.string().max(256), ZText(HOLD_PREVIEW_MAX_CHARS + 1).nullable()),
  timestampMs: ZEpochMs.nullable(),
});

/** One stop of this member for a rebalance, measured by the instance itself. */
export const ZRebalanceStop = z.object({
  memberId: ZText(512),
  leaderId: ZText(512),
  isLeader: z.boolean(),
  groupProtocol: ZText(256),
  cause: z.enum(['rebalance', 'join']),
  startedAtMs: ZEpochMs,
  endedAtMs: ZEpochMs,
  assignmentBefore: z.array(ZTopicPartition).max(100_000),
  assignmentAfter: z.array(ZTopicPartition).max(100_000),
});

/** What an instance did with a command it applied (the audit's outcome). */
export const ZCommandOutcome = z.object({
  commandId: ZName,
  action: ZOperatorCommandAction,
  topic: ZTopic,
  partition: ZPartition,
  status: ZCommandStatus,
  outcome: ZText(4_096),
  /** For 'done': the offset the partition was held at, which the command lifted. */
  liftedOffset: ZOffset.optional(),
  /** For a seek: where the partition continues (resolved from a time when one was given). */
  seekOffset: ZOffset.optional(),
  appliedAtMs: ZEpochMs,
});

/** A command this instance would not apply (signature, version, size, shape), reported instead. */
export const ZRefusedCommand = z.object({
  atMs: ZEpochMs,
  /** The command's id when it could be read. */
  commandId: ZName.nullable(),
  reason: ZText(1_024),
});

export const ZInstanceState = z.object({
  v: z.literal(CONTROL_PROTOCOL_VERSION),
  type: z.literal('instance-state'),
  groupId: ZName,
  /** Unique per running process: client id @ host / pid unless the host names it. */
  instanceId: ZName,
  clientId: ZText(512),
  host: ZText(512),
  pid: ZCount,
  packageVersion: ZText(64),
  startedAtMs: ZEpochMs,
  publishedAtMs: ZEpochMs,
  /** How often the instance publishes while running: a reader calls it gone after a few missed ones. */
  stateIntervalMs: z.number().int().min(100),
  /** 'stopped' is the last message of a clean shutdown. */
  status: z.enum(['running', 'stopped']),
  ready: z.boolean(),
  readinessDetail: ZText(1_024),
  topics: z.array(ZTopic).max(10_000),
  assignment: z.array(ZTopicPartition).max(100_000),
  partitions: z.array(ZPartitionState).max(100_000),
  holds: z.array(ZHold).max(100_000),
  rebalances: z.array(ZRebalanceStop).max(MAX_RECENT_REBALANCES),
  outcomes: z.array(ZCommandOutcome).max(MAX_RECENT_ACKS),
  refused: z.object({ count: ZCount, recent: z.array(ZRefusedCommand).max(MAX_RECENT_ACKS) }),
  /** True when previews or partitions were left out to stay under MAX_STATE_MESSAGE_BYTES. */
  truncated: z.boolean(),
});

export const ZOperatorCommand = z.object({
  v: z.literal(CONTROL_PROTOCOL_VERSION),
  type: z.literal('command'),
  /** Unique per command: an instance applies a command at most once. */
  id: ZName,
  groupId: ZName,
  topic: ZTopic,
  partition: ZPartition,
  action: ZOperatorCommandAction,
  /** The offset the partition was held at when the operator acted: the command applies only to that hold. */
  quarantineOffset: ZOffset.nullable(),
  seekOffset: ZOffset.nullable(),
  seekTimestampMs: ZEpochMs.nullable(),
  reason: ZText(4_096),
  requestedBy: ZText(512),
  requestedAtMs: ZEpochMs,
  /** No instance applies the command after this time (its own clock); Warden then records it expired. */
  expiresAtMs: ZEpochMs,
});

/** On the command topic: an instance applied (or refused with an outcome) a command. */
export const ZCommandAck = z.object({
  v: z.literal(CONTROL_PROTOCOL_VERSION),
  type: z.literal('ack'),
  commandId: ZName,
  groupId: ZName,
  topic: ZTopic,
  partition: ZPartition,
  instanceId: ZName,
  status: ZCommandStatus,
  atMs: ZEpochMs,
});

export const ZCommandTopicMessage = z.discriminatedUnion('type', [ZOperatorCommand, ZCommandAck]);

export type TPartitionState = z.infer<typeof ZPartitionState>;
export type THold = z.infer<typeof ZHold>;
export type TRebalanceStop = z.infer<typeof ZRebalanceStop>;
export type TCommandOutcome = z.infer<typeof ZCommandOutcome>;
export type TRefusedCommand = z.infer<typeof ZRefusedCommand>;
export type TInstanceState = z.infer<typeof ZInstanceState>;
export type TOperatorCommand = z.infer<typeof ZOperatorCommand>;
export type TCommandAck = z.infer<typeof ZCommandAck>;
export type TCommandTopicMessage = z.infer<typeof ZCommandTopicMessage>;

export type Decoded<T> = { ok: true; message: T } | { ok: false; reason: string };

const ZEnvelope = z.object({ v: z.unknown(), type: z.unknown() });

/**
 * Parses one message's value. Never throws: a missing value, an oversized one, bad JSON, another protocol
 * version, an unknown type or a shape the schema refuses each come back as a reason naming the problem.
 */
export function decodeControlMessage<T>(
  value: Buffer | null | undefined,
  schema: z.ZodType<T>,
  maxBytes: number,
): Decoded<T> {
  if (value === null || value === undefined) return { ok: false, reason: 'no value' };
  if (value.length > maxBytes) return { ok: false, reason: `${value.length} bytes, over the ${maxBytes}-byte limit` };
  let json: unknown;
  try {
    json = JSON.parse(value.toString('utf8'));
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  const envelope = ZEnvelope.safeParse(json);
  if (!envelope.success) return { ok: false, reason: 'not a JSON object' };
  if (envelope.data.v !== CONTROL_PROTOCOL_VERSION)
    return {
      ok: false,
      reason: `protocol version ${JSON.stringify(envelope.data.v)}; this reader speaks ${CONTROL_PROTOCOL_VERSION}`,
    };
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    return { ok: false, reason: `not a valid message (${where}${issue?.message ?? 'invalid'})` };
  }
  return { ok: true, message: parsed.data };
}

/** The bytes of a message as it goes on the wire. */
export function encodeControlMessage(message: TInstanceState | TCommandTopicMessage): Buffer {
  return Buffer.from(JSON.stringify(message), 'utf8');
}
