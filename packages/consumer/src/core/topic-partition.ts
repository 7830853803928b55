import type { TopicPartition } from './types.js';

/** Map key of a partition. NUL cannot appear in a Kafka topic name, so keys never collide. */
export function topicPartitionKey(tp: TopicPartition): string {
  return `${tp.topic}\u0000${tp.partition}`;
}

export function formatTopicPartition(tp: TopicPartition): string {
  return `${tp.topic}[${tp.partition}]`;
}

/** Identity of one record across partition-state resets and reassignments. */
export function recordIdentity(tp: TopicPartition, offset: string): string {
  return `${tp.topic}\u0000${tp.partition}\u0000${offset}`;
}
