import type { Admin } from 'kafkajs';
import type { DeadLetterInfo, SourceRecord, TopicPartition } from '@warden/consumer';
import type { ActionCore, ActionPorts } from './execute-operator-action';

/** The real ports: the worker's consumer core, its dead-letter writer and the admin client for offsets. */
export function createKafkaActionPorts(options: {
  admin: Admin;
  core: ActionCore;
  deadLetter: { topic: string; write(record: SourceRecord, info: DeadLetterInfo): Promise<void> } | null;
}): ActionPorts {
  const { admin } = options;
  const partitionOf = <T extends { partition: number }>(list: T[], tp: TopicPartition): T => {
    const found = list.find((p) => p.partition === tp.partition);
    if (!found) throw new Error(`${tp.topic}-${tp.partition} does not exist on the broker`);
    return found;
  };
  return {
    core: options.core,
    deadLetter: options.deadLetter,
    logRange: async (tp) => {
      const p = partitionOf(await admin.fetchTopicOffsets(tp.topic), tp);
      return { start: BigInt(p.low), end: BigInt(p.high) };
    },
    // kafkajs answers the high watermark when no record is at or after the time.
    offsetAt: async (tp, timestampMs) =>
      BigInt(partitionOf(await admin.fetchTopicOffsetsByTimestamp(tp.topic, timestampMs), tp).offset),
  };
}
