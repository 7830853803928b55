import type { Database } from '../../lib/db';
import type { QuarantineClearReason, QuarantineInfo, TopicPartition } from '../core/types';

/** Longest payload preview kept; the record itself stays in Kafka at its offset. */
export const PREVIEW_MAX_CHARS = 2_048;

/**
 * Persists quarantines so the dashboard, and a new owner after a rebalance, see them. Keyed by
 * group/topic/partition: a partition holds at most one quarantine (it stops at the first bad record).
 */
export class QuarantineStore {
  constructor(
    private readonly db: Database,
    private readonly groupId: string,
  ) {}

  async save(q: QuarantineInfo): Promise<void> {
    const row = {
      offset: BigInt(q.offset),
      reason: q.reason,
      errorClass: q.errorClass,
      since: new Date(q.sinceMs),
      attempts: q.attempts,
      recordKey: q.key === null ? null : previewOf(q.key),
      recordPreview: q.value === null ? null : previewOf(q.value),
      recordHeaders: Object.fromEntries(
        Object.entries(q.headers).map(([name, value]) => [
          name,
          value === undefined ? null : previewOf(Buffer.from(value)),
        ]),
      ),
      recordTimestamp: Number.isFinite(q.timestampMs) ? new Date(q.timestampMs) : null,
    };
    const id = { groupId: this.groupId, topic: q.topic, partition: q.partition };
    await this.db.partitionQuarantine.upsert({
      where: { groupId_topic_partition: id },
      create: { ...id, ...row },
      update: row,
    });
  }

  /**
   * Lifts the persisted quarantine when an operator resumed, skipped or sought past it. A revocation does
   * not: the quarantine belongs to the group's partition, the next owner stops at the same record, and
   * deleting here could race with that owner's save and hide a live quarantine.
   */
  async clear(tp: TopicPartition, reason: QuarantineClearReason): Promise<void> {
    if (reason === 'revoked') return;
    await this.db.partitionQuarantine.deleteMany({
      where: { groupId: this.groupId, topic: tp.topic, partition: tp.partition },
    });
  }
}

/**
 * A size-capped, printable preview: valid UTF-8 is kept (control characters escaped as \uXXXX),
 * anything else is shown as hex, so a preview can never carry raw bytes into the UI.
 */
export function previewOf(bytes: Buffer): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const hex = bytes.subarray(0, PREVIEW_MAX_CHARS / 2).toString('hex');
    return `hex:${hex}${bytes.length > PREVIEW_MAX_CHARS / 2 ? '…' : ''}`;
  }
  // Every control character but tab, line feed and carriage return (C0, DEL and C1).
  const escaped = text.replace(/(?![\t\n\r])\p{Cc}/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return escaped.length > PREVIEW_MAX_CHARS ? `${escaped.slice(0, PREVIEW_MAX_CHARS)}…` : escaped;
}
