import type { PartitionSnapshot, QuarantineInfo, TopicPartition } from '../core/index.js';
import type { Readiness, RebalanceTiming } from '../kafkajs/consumer-types.js';
import {
  CONTROL_PROTOCOL_VERSION,
  encodeControlMessage,
  MAX_STATE_MESSAGE_BYTES,
  type THold,
  type TCommandOutcome,
  type TInstanceState,
  type TPartitionState,
  type TRebalanceStop,
  type TRefusedCommand,
} from './protocol.js';
import { previewOf } from './record-preview.js';

// The state message an instance publishes (protocol.ts, ZInstanceState), built from the core's snapshot and
// what the control plane remembers. Pure.
//
// Invariants: every text is cut to its field's limit, every offset is a decimal int64 or null, so the message
// always parses with ZInstanceState; the encoded message stays within `maxBytes`: when it would not, the
// record previews of the holds go first, then partition states beyond what fits (held partitions are kept
// longest), then holds, rebalance stops and the assignment list, and `truncated` says so.

export interface InstanceIdentity {
  groupId: string;
  instanceId: string;
  clientId: string;
  host: string;
  pid: number;
  packageVersion: string;
  startedAtMs: number;
  stateIntervalMs: number;
  topics: readonly string[];
}

export interface InstanceStateInput {
  identity: InstanceIdentity;
  publishedAtMs: number;
  status: TInstanceState['status'];
  readiness: Readiness;
  assignment: readonly TopicPartition[];
  partitions: readonly PartitionSnapshot[];
  rebalances: readonly TRebalanceStop[];
  outcomes: readonly TCommandOutcome[];
  refused: { count: number; recent: readonly TRefusedCommand[] };
}

export interface BuiltInstanceState {
  message: TInstanceState;
  /** The message as it goes on the wire, at most `maxBytes` long. */
  bytes: Buffer;
}

/** The newest `capacity` items, oldest first. */
export class RecentList<T> {
  private readonly list: T[] = [];

  constructor(private readonly capacity: number) {}

  push(item: T): void {
    this.list.push(item);
    if (this.list.length > this.capacity) this.list.splice(0, this.list.length - this.capacity);
  }

  get items(): readonly T[] {
    return this.list;
  }
}

/** `text` cut to `max` characters (the last one an ellipsis when cut), never splitting a surrogate pair. */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 2)) ? max - 2 : max - 1;
  return `${text.slice(0, end)}…`;
}

const OFFSET = /^\d{1,19}$/;
const offsetOrNull = (offset: string | null): string | null => (offset !== null && OFFSET.test(offset) ? offset : null);
const count = (value: number): number => (Number.isFinite(value) ? Math.max(0, Math.round(value)) : 0);

/** A measured rebalance stop as the protocol carries it. */
export function rebalanceStopOf(timing: RebalanceTiming): TRebalanceStop {
  return {
    memberId: capText(timing.memberId, 512),
    leaderId: capText(timing.leaderId, 512),
    isLeader: timing.isLeader,
    groupProtocol: capText(timing.groupProtocol, 256),
    cause: timing.cause,
    startedAtMs: count(timing.startedAtMs),
    endedAtMs: count(timing.endedAtMs),
    assignmentBefore: timing.assignmentBefore.map(({ topic, partition }) => ({ topic, partition })),
    assignmentAfter: timing.assignmentAfter.map(({ topic, partition }) => ({ topic, partition })),
  };
}

function partitionStateOf(p: PartitionSnapshot): TPartitionState {
  return {
    topic: p.topic,
    partition: p.partition,
    watermark: offsetOrNull(p.watermark),
    highestCompleted: offsetOrNull(p.highestCompleted),
    inFlight: count(p.inFlight),
    completedUncommitted: count(p.completedUncommitted),
    buffered: count(p.buffered),
    bufferedBytes: count(p.bufferedBytes),
    oldestUnfinishedOffset: offsetOrNull(p.oldestUnfinishedOffset),
    oldestUnfinishedAgeMs: p.oldestUnfinishedAgeMs === null ? null : count(p.oldestUnfinishedAgeMs),
    paused: p.paused || p.quarantine !== null,
  };
}

function holdOf(q: QuarantineInfo, withPreviews: boolean): THold {
  const preview = (bytes: Buffer | string | null | undefined) =>
    withPreviews && bytes !== null && bytes !== undefined ? previewOf(bytes) : null;
  const headers: Record<string, string | null> = {};
  if (withPreviews) for (const [name, value] of Object.entries(q.headers)) headers[capText(name, 256)] = preview(value);
  return {
    topic: q.topic,
    partition: q.partition,
    offset: q.offset,
    sinceMs: count(q.sinceMs),
    reason: capText(q.reason, 4_096),
    errorClass: capText(q.errorClass, 256),
    attempts: count(q.attempts),
    key: preview(q.key),
    value: preview(q.value),
    headers,
    timestampMs: Number.isFinite(q.timestampMs) && q.timestampMs >= 0 ? Math.round(q.timestampMs) : null,
  };
}

/** Lists that give way, in this order, when the message is too large. */
const SHRINKABLE = ['partitions', 'holds', 'rebalances', 'assignment', 'outcomes'] as const;
type Shrinkable = (typeof SHRINKABLE)[number];
/** Lists ordered oldest first keep their newest items when cut; the others keep their first ones. */
const KEEPS_NEWEST: ReadonlySet<Shrinkable> = new Set(['rebalances', 'outcomes']);

const byteLength = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** The `kept` items of a list that is cut: the newest or the first ones. */
function keep<T>(name: Shrinkable, items: readonly T[], kept: number): T[] {
  return KEEPS_NEWEST.has(name) ? items.slice(items.length - kept) : items.slice(0, kept);
}

/** Builds the state message within `maxBytes` (see the invariants above). */
export function buildInstanceState(input: InstanceStateInput, maxBytes = MAX_STATE_MESSAGE_BYTES): BuiltInstanceState {
  const { identity } = input;
  const stopped = input.status === 'stopped';
  // Held partitions first: when partitions must be left out, the ones an operator needs stay longest.
  const snapshots = [...input.partitions].sort((a, b) => Number(b.quarantine !== null) - Number(a.quarantine !== null));
  const quarantines = snapshots.flatMap((p) =>
    p.quarantine && OFFSET.test(p.quarantine.offset) ? [p.quarantine] : [],
  );
  const base: TInstanceState = {
    v: CONTROL_PROTOCOL_VERSION,
    type: 'instance-state',
    groupId: identity.groupId,
    instanceId: identity.instanceId,
    clientId: capText(identity.clientId, 512),
    host: capText(identity.host, 512),
    pid: count(identity.pid),
    packageVersion: capText(identity.packageVersion, 64),
    startedAtMs: count(identity.startedAtMs),
    publishedAtMs: count(input.publishedAtMs),
    stateIntervalMs: identity.stateIntervalMs,
    status: input.status,
    ready: stopped ? false : input.readiness.ready,
    readinessDetail: capText(stopped ? 'stopped' : input.readiness.detail, 1_024),
    topics: [...identity.topics],
    assignment: input.assignment.map(({ topic, partition }) => ({ topic, partition })),
    partitions: snapshots.map(partitionStateOf),
    holds: quarantines.map((q) => holdOf(q, true)),
    rebalances: [...input.rebalances],
    outcomes: [...input.outcomes],
    refused: { count: count(input.refused.count), recent: [...input.refused.recent] },
    truncated: false,
  };
  const bytes = encodeControlMessage(base);
  if (bytes.length <= maxBytes) return { message: base, bytes };

  const lists = { ...base, holds: quarantines.map((q) => holdOf(q, false)), truncated: true };
  // Sizes are summed rather than re-encoded: a JSON array is its elements' texts joined by commas, so the
  // size of any choice of kept items is exact without building it.
  const sizes = Object.fromEntries(
    SHRINKABLE.map((name) => [name, prefixSums(lists[name] as readonly unknown[], KEEPS_NEWEST.has(name))]),
  ) as Record<Shrinkable, number[]>;
  const empty = Object.fromEntries(SHRINKABLE.map((name) => [name, []]));
  const emptyBytes = byteLength({ ...lists, ...empty });
  const total = (kept: Record<Shrinkable, number>) =>
    SHRINKABLE.reduce((sum, name) => sum + sizes[name][kept[name]]! + Math.max(0, kept[name] - 1), emptyBytes);
  const kept = Object.fromEntries(SHRINKABLE.map((name) => [name, lists[name].length])) as Record<Shrinkable, number>;
  for (const name of SHRINKABLE) {
    if (total(kept) <= maxBytes) break;
    // The most items of this list that fit with the lists before it already cut.
    let low = 0;
    let high = kept[name];
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (total({ ...kept, [name]: mid }) <= maxBytes) low = mid;
      else high = mid - 1;
    }
    kept[name] = low;
  }
  const message: TInstanceState = {
    ...lists,
    partitions: keep('partitions', lists.partitions, kept.partitions),
    holds: keep('holds', lists.holds, kept.holds),
    rebalances: keep('rebalances', lists.rebalances, kept.rebalances),
    assignment: keep('assignment', lists.assignment, kept.assignment),
    outcomes: keep('outcomes', lists.outcomes, kept.outcomes),
  };
  return { message, bytes: encodeControlMessage(message) };
}

/**
 * sums[k]: the encoded bytes of the k items a cut keeps (without the commas between them): the first k, or with
 * `fromEnd` the last k.
 */
function prefixSums(items: readonly unknown[], fromEnd: boolean): number[] {
  const ordered = fromEnd ? [...items].reverse() : items;
  const sums = [0];
  for (const item of ordered) sums.push(sums[sums.length - 1]! + byteLength(item));
  return sums;
}
