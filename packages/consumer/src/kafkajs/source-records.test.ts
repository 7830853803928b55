import type { KafkaMessage } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { firstHeaderValues, toSourceRecords } from './source-records.js';

const message = (fields: Partial<KafkaMessage>): KafkaMessage =>
  ({
    offset: '7',
    timestamp: '1700000000123',
    key: null,
    value: null,
    attributes: 0,
    headers: {},
    ...fields,
  }) as KafkaMessage;

describe('toSourceRecords', () => {
  it('keeps offsets as strings, turns the timestamp into a number and missing key/value into null', () => {
    const [record] = toSourceRecords('orders', 3, [message({ key: Buffer.from('k'), value: null })]);
    expect(record).toEqual({
      topic: 'orders',
      partition: 3,
      offset: '7',
      key: Buffer.from('k'),
      value: null,
      timestampMs: 1_700_000_000_123,
      headers: {},
    });
  });

  it('keeps the order of the batch', () => {
    const records = toSourceRecords(
      't',
      0,
      ['1', '2', '3'].map((offset) => message({ offset })),
    );
    expect(records.map((record) => record.offset)).toEqual(['1', '2', '3']);
  });
});

describe('firstHeaderValues', () => {
  it('takes the first value of a repeated header and keeps the others', () => {
    const headers = { trace: [Buffer.from('a'), Buffer.from('b')], tenant: 'acme', empty: undefined };
    expect(firstHeaderValues(headers)).toEqual({ trace: Buffer.from('a'), tenant: 'acme', empty: undefined });
    // The input is left as kafkajs delivered it.
    expect(headers.trace).toHaveLength(2);
  });

  it('passes headers without repeated names through uncopied, and missing headers as an empty object', () => {
    const headers = { tenant: Buffer.from('acme') };
    expect(firstHeaderValues(headers)).toBe(headers);
    expect(firstHeaderValues(undefined)).toEqual({});
  });
});
