// Pure decoder of __consumer_offsets records (the group coordinator's log), never throws.
//
// Key: int16 version, then for versions 0 and 1 (an offset commit) group, topic (int16-length strings) and
// partition (int32); version 2 is group metadata, higher versions are the newer coordinators' records (consumer
// groups, share groups): both are skipped. Value of an offset commit: int16 version, then
//   v0: offset int64, metadata string, commitTimestamp int64
//   v1: offset, metadata, commitTimestamp, expireTimestamp int64
//   v2: offset, metadata, commitTimestamp
//   v3: offset, leaderEpoch int32, metadata, commitTimestamp
//   v4 (flexible, written by Kafka 4.x): offset, leaderEpoch, metadata as a compact string (unsigned varint
//       length + 1), commitTimestamp, then tagged fields (ignored).
// A null value is a tombstone: the group's committed offset for that partition was deleted.

export interface OffsetCommitKey {
  groupId: string;
  topic: string;
  partition: number;
}

export type DecodedOffsetRecord =
  | {
      kind: 'commit';
      key: OffsetCommitKey;
      offset: bigint;
      commitTimestampMs: number;
      leaderEpoch: number | null;
      metadata: string;
    }
  | { kind: 'tombstone'; key: OffsetCommitKey }
  /** A record that is not an offset commit (group metadata, newer record types): nothing to do. */
  | { kind: 'skipped'; keyVersion: number }
  /** Bytes that do not decode: the caller counts and logs them; they never stop the reader. */
  | { kind: 'invalid'; reason: string };

class Cursor {
  private position = 0;
  constructor(private readonly bytes: Buffer) {}

  get remaining(): number {
    return this.bytes.length - this.position;
  }

  int16(): number {
    this.need(2);
    const value = this.bytes.readInt16BE(this.position);
    this.position += 2;
    return value;
  }

  int32(): number {
    this.need(4);
    const value = this.bytes.readInt32BE(this.position);
    this.position += 4;
    return value;
  }

  int64(): bigint {
    this.need(8);
    const value = this.bytes.readBigInt64BE(this.position);
    this.position += 8;
    return value;
  }

  unsignedVarint(): number {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      this.need(1);
      const byte = this.bytes[this.position++] as number;
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return value;
    }
    throw new RangeError('varint longer than 5 bytes');
  }

  /** An int16-length string; -1 (null) only where `nullable`. */
  string(): string {
    const length = this.int16();
    if (length < 0) throw new RangeError(`string length ${length}`);
    return this.utf8(length);
  }

  /** A compact string: unsigned varint length + 1 (0 is null, read as empty here). */
  compactString(): string {
    const lengthPlusOne = this.unsignedVarint();
    return lengthPlusOne === 0 ? '' : this.utf8(lengthPlusOne - 1);
  }

  skip(length: number): void {
    this.need(length);
    this.position += length;
  }

  private utf8(length: number): string {
    this.need(length);
    const value = this.bytes.toString('utf8', this.position, this.position + length);
    this.position += length;
    return value;
  }

  private need(length: number): void {
    if (this.remaining < length) throw new RangeError(`needs ${length} more bytes, has ${this.remaining}`);
  }
}

/** Decodes one __consumer_offsets record; `value` null is a tombstone. */
export function decodeOffsetRecord(key: Buffer | null, value: Buffer | null): DecodedOffsetRecord {
  if (key === null) return { kind: 'invalid', reason: 'record without a key' };
  let parsedKey: OffsetCommitKey;
  try {
    const cursor = new Cursor(key);
    const keyVersion = cursor.int16();
    if (keyVersion !== 0 && keyVersion !== 1) return { kind: 'skipped', keyVersion };
    parsedKey = { groupId: cursor.string(), topic: cursor.string(), partition: cursor.int32() };
  } catch (error) {
    return { kind: 'invalid', reason: `key: ${(error as Error).message}` };
  }
  if (value === null) return { kind: 'tombstone', key: parsedKey };
  try {
    const cursor = new Cursor(value);
    const version = cursor.int16();
    if (version < 0 || version > 4) return { kind: 'invalid', reason: `unknown value version ${version}` };
    const offset = cursor.int64();
    const leaderEpoch = version >= 3 ? cursor.int32() : null;
    const metadata = version >= 4 ? cursor.compactString() : cursor.string();
    const commitTimestamp = cursor.int64();
    if (version === 1) cursor.int64(); // expireTimestamp: not needed
    if (version >= 4) {
      const tags = cursor.unsignedVarint();
      for (let i = 0; i < tags; i++) {
        cursor.unsignedVarint();
        cursor.skip(cursor.unsignedVarint());
      }
    }
    return {
      kind: 'commit',
      key: parsedKey,
      offset,
      commitTimestampMs: Number(commitTimestamp),
      leaderEpoch: leaderEpoch === null || leaderEpoch < 0 ? null : leaderEpoch,
      metadata,
    };
  } catch (error) {
    return { kind: 'invalid', reason: `value: ${(error as Error).message}` };
  }
}
