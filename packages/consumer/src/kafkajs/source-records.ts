import type { IHeaders, KafkaMessage } from 'kafkajs';
import type { SourceRecord } from '../core/index.js';

// kafkajs messages → the core's SourceRecord. Runs once per consumed record: a plain loop, and headers are
// copied only when kafkajs grouped a repeated header name into an array.

export function toSourceRecords(topic: string, partition: number, messages: readonly KafkaMessage[]): SourceRecord[] {
  const records = new Array<SourceRecord>(messages.length);
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    records[index] = {
      topic,
      partition,
      offset: message.offset,
      key: message.key ?? null,
      value: message.value ?? null,
      timestampMs: Number(message.timestamp),
      headers: firstHeaderValues(message.headers),
    };
  }
  return records;
}

/**
 * The first value of every header (the core's header shape). Headers without a repeated name (nearly all)
 * are returned as they are.
 */
export function firstHeaderValues(headers: IHeaders | undefined): SourceRecord['headers'] {
  if (headers === undefined) return {};
  let repeated = false;
  for (const name in headers) {
    if (Array.isArray(headers[name])) {
      repeated = true;
      break;
    }
  }
  if (!repeated) return headers as SourceRecord['headers'];
  const result: SourceRecord['headers'] = {};
  for (const name in headers) {
    const value = headers[name];
    result[name] = Array.isArray(value) ? value[0] : value;
  }
  return result;
}
