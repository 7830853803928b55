import type { Producer } from 'kafkajs';
import type { DeadLetterInfo, SourceRecord } from '@warden/consumer';
import { withRecordSpan } from './trace-context';

/** Headers naming where a dead-lettered record came from and why; values are strings. */
export const DLQ_HEADERS = {
  topic: 'warden-source-topic',
  partition: 'warden-source-partition',
  offset: 'warden-source-offset',
  errorClass: 'warden-error-class',
  message: 'warden-error-message',
  attempts: 'warden-attempts',
} as const;

/**
 * Writes the original record (key, value, headers kept) to the dead-letter topic with acks=all. The core
 * counts the record complete only when this resolves, so a failed write never lets the source commit past it.
 * A valid `traceparent` is continued (the copy's parent is Warden's dead-letter span); a malformed one is
 * kept as it came, since the copy must show the record exactly.
 */
export function createDeadLetterWriter(producer: Producer, topic: string) {
  return (record: SourceRecord, info: DeadLetterInfo): Promise<void> =>
    withRecordSpan('warden dead-letter', record.headers, { 'messaging.destination.name': topic }, (traceHeaders) =>
      write(record, info, traceHeaders),
    );

  async function write(
    record: SourceRecord,
    info: DeadLetterInfo,
    traceHeaders: Record<string, string>,
  ): Promise<void> {
    const original = Object.fromEntries(
      Object.entries(record.headers).filter((entry): entry is [string, Buffer | string] => entry[1] !== undefined),
    );
    await producer.send({
      topic,
      acks: -1,
      messages: [
        {
          key: record.key,
          value: record.value,
          timestamp: String(record.timestampMs),
          headers: {
            ...original,
            ...traceHeaders,
            [DLQ_HEADERS.topic]: record.topic,
            [DLQ_HEADERS.partition]: String(record.partition),
            [DLQ_HEADERS.offset]: record.offset,
            [DLQ_HEADERS.errorClass]: info.errorClass,
            [DLQ_HEADERS.message]: info.reason.slice(0, 1_000),
            [DLQ_HEADERS.attempts]: String(info.attempts),
          },
        },
      ],
    });
  }
}
