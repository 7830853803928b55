import type { Producer } from 'kafkajs';
import type { DeadLetterInfo, SourceRecord } from '@warden/consumer';
import { DEAD_LETTER_HEADERS } from '../../lib/dead-letters/dead-letter-record';
import { withRecordSpan } from './trace-context';

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
            [DEAD_LETTER_HEADERS.topic]: record.topic,
            [DEAD_LETTER_HEADERS.partition]: String(record.partition),
            [DEAD_LETTER_HEADERS.offset]: record.offset,
            [DEAD_LETTER_HEADERS.errorClass]: info.errorClass,
            [DEAD_LETTER_HEADERS.message]: info.reason.slice(0, 1_000),
            [DEAD_LETTER_HEADERS.attempts]: String(info.attempts),
          },
        },
      ],
    });
  }
}
