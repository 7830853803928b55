import { describe, expect, it } from 'vitest';
import { decodeOffsetRecord } from './offset-commit-decoder';

const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex');

// Written by the bundled Kafka 4.1.2 broker for kafkajs commits of group "cap.g", topic "cap.t", partition 0
// (captured from __consumer_offsets; status-on-broker.it.ts checks the live broker still writes version 4).
const KEY_V1 = hex('0001 0005 6361702e67 0005 6361702e74 00000000');
const VALUE_V4_WITH_METADATA = hex('0004 000000000000002a ffffffff 05 6d657461 000001a2315d32f6 00');
const VALUE_V4_NO_METADATA = hex('0004 000000000000002a ffffffff 01 000001a2315d3330 00');
const GROUP_METADATA_KEY = hex('0002 0005 6361702e67');

function int64(value: number): string {
  return value.toString(16).padStart(16, '0');
}
const META = '0004 6d657461'; // int16-length "meta"

describe('decodeOffsetRecord', () => {
  const key = { groupId: 'cap.g', topic: 'cap.t', partition: 0 };

  it('decodes the flexible value version 4 that Kafka 4.1 writes (bytes from the real broker)', () => {
    expect(decodeOffsetRecord(KEY_V1, VALUE_V4_WITH_METADATA)).toEqual({
      kind: 'commit',
      key,
      offset: 42n,
      commitTimestampMs: 1_796_124_521_206,
      leaderEpoch: null,
      metadata: 'meta',
    });
    expect(decodeOffsetRecord(KEY_V1, VALUE_V4_NO_METADATA)).toMatchObject({
      kind: 'commit',
      offset: 42n,
      commitTimestampMs: 1_796_124_521_264,
      metadata: '',
    });
  });

  it('skips tagged fields after a version 4 value', () => {
    const tagged = hex('0004 000000000000002a 00000007 01 000001a2315d3330 02 00 02 abcd 05 01 ff');
    expect(decodeOffsetRecord(KEY_V1, tagged)).toMatchObject({ kind: 'commit', offset: 42n, leaderEpoch: 7 });
  });

  it('decodes value versions 0 to 3', () => {
    const ts = int64(1_700_000_000_000);
    const cases: Array<[string, number | null]> = [
      [`0000 ${int64(10)} ${META} ${ts}`, null],
      [`0001 ${int64(10)} ${META} ${ts} ${int64(1_700_000_600_000)}`, null],
      [`0002 ${int64(10)} ${META} ${ts}`, null],
      [`0003 ${int64(10)} 00000005 ${META} ${ts}`, 5],
    ];
    for (const [value, leaderEpoch] of cases) {
      expect(decodeOffsetRecord(KEY_V1, hex(value)), value).toEqual({
        kind: 'commit',
        key,
        offset: 10n,
        commitTimestampMs: 1_700_000_000_000,
        leaderEpoch,
        metadata: 'meta',
      });
    }
  });

  it('decodes key version 0 like version 1', () => {
    const keyV0 = hex('0000 0005 6361702e67 0005 6361702e74 00000003');
    expect(decodeOffsetRecord(keyV0, VALUE_V4_NO_METADATA)).toMatchObject({ key: { ...key, partition: 3 } });
  });

  it('reads a null value as a tombstone', () => {
    expect(decodeOffsetRecord(KEY_V1, null)).toEqual({ kind: 'tombstone', key });
  });

  it('skips group metadata and newer record types, whatever their value', () => {
    expect(decodeOffsetRecord(GROUP_METADATA_KEY, hex('0003 0008'))).toEqual({ kind: 'skipped', keyVersion: 2 });
    expect(decodeOffsetRecord(hex('0003 0001 61'), null)).toEqual({ kind: 'skipped', keyVersion: 3 });
  });

  it('never throws on bytes that do not decode: it says why', () => {
    expect(decodeOffsetRecord(null, VALUE_V4_NO_METADATA)).toEqual({ kind: 'invalid', reason: 'record without a key' });
    expect(decodeOffsetRecord(hex('0001 0005 6361'), null)).toMatchObject({ kind: 'invalid', reason: /^key: / });
    expect(decodeOffsetRecord(KEY_V1, hex('0004 0000'))).toMatchObject({ kind: 'invalid', reason: /^value: / });
    expect(decodeOffsetRecord(KEY_V1, hex('0009 000000000000002a'))).toEqual({
      kind: 'invalid',
      reason: 'unknown value version 9',
    });
    expect(decodeOffsetRecord(KEY_V1, hex('0004 000000000000002a ffffffff ffffffffff'))).toMatchObject({
      kind: 'invalid',
    });
    expect(decodeOffsetRecord(hex(''), null)).toMatchObject({ kind: 'invalid' });
  });
});
