import { describe, expect, it } from 'vitest';
import {
  COMPLETED_ABOVE_VERSION,
  decodeCompletedAbove,
  encodeCompletedAbove,
  INT64_MAX,
  nextCommitOffset,
  parseOffset,
} from './offsets.js';
import { seededRandom } from './testing/seeded-random.js';

const set = (...offsets: Array<string | number>) => new Set(offsets.map(String));
const strings = (...offsets: Array<string | number>) => offsets.map(String);

describe('parseOffset', () => {
  it('accepts canonical int64 decimals only', () => {
    expect(parseOffset('0')).toBe(0n);
    expect(parseOffset('9223372036854775807')).toBe(INT64_MAX);
    for (const bad of [
      '',
      '-1',
      '01',
      '+1',
      ' 1',
      '1.0',
      '1e3',
      'abc',
      '9223372036854775808',
      '99999999999999999999',
    ]) {
      expect(parseOffset(bad), bad).toBeNull();
    }
  });
});

describe('nextCommitOffset', () => {
  it('is null when nothing was delivered', () => {
    expect(nextCommitOffset([], set())).toBeNull();
    expect(nextCommitOffset([], set(1, 2))).toBeNull();
  });

  it('is null when the first delivered record is not complete, whatever completed after it', () => {
    expect(nextCommitOffset(strings(5, 6, 7), set(6, 7))).toBeNull();
  });

  it('commits last completed of the contiguous prefix + 1 ("next to read")', () => {
    expect(nextCommitOffset(strings(5, 6, 7), set(5, 6, 7))).toBe('8');
    expect(nextCommitOffset(strings(5, 6, 7, 8), set(5, 6, 8))).toBe('7');
    expect(nextCommitOffset(strings(10), set(10))).toBe('11');
  });

  it('treats offset gaps (compaction, transaction markers) as no record, not as a hole', () => {
    expect(nextCommitOffset(strings(10, 12, 15), set(10, 12, 15))).toBe('16');
    expect(nextCommitOffset(strings(10, 12, 15), set(10, 15))).toBe('11');
    expect(nextCommitOffset(strings(5, 9), set(5))).toBe('6');
  });

  it('ignores completed offsets that were never delivered', () => {
    expect(nextCommitOffset(strings(1, 2), set(0, 1, 3, 4))).toBe('2');
  });

  it('stays exact beyond Number precision and near 2^63', () => {
    expect(nextCommitOffset(strings('9007199254740993'), set('9007199254740993'))).toBe('9007199254740994');
    expect(
      nextCommitOffset(
        strings('9223372036854775805', '9223372036854775806'),
        set('9223372036854775805', '9223372036854775806'),
      ),
    ).toBe('9223372036854775807');
  });

  it('refuses to produce an offset beyond int64', () => {
    expect(() => nextCommitOffset(strings('9223372036854775807'), set('9223372036854775807'))).toThrow(RangeError);
  });
});

describe('encodeCompletedAbove / decodeCompletedAbove', () => {
  it('writes a versioned, base-bound run-length payload (golden value)', () => {
    // runs above 100: [102..104] -> (102-100-1=1, 2), [110] -> (110-104-1=5, 0) -> bytes 01 02 05 00
    expect(encodeCompletedAbove('100', strings(110, 104, 102, 103), 4000)).toBe('w1:100:AQIFAA');
    expect(COMPLETED_ABOVE_VERSION).toBe('w1');
  });

  it('encodes an empty set as an empty payload that decodes to nothing', () => {
    const encoded = encodeCompletedAbove('7', [], 4000);
    expect(encoded).toBe('w1:7:');
    expect(decodeCompletedAbove('7', encoded)).toEqual(new Set());
  });

  it('ignores order, duplicates and offsets at or below the base', () => {
    const a = encodeCompletedAbove('100', strings(105, 101, 103, 105, 100, 99, 0, 101), 4000);
    const b = encodeCompletedAbove('100', strings(101, 103, 105), 4000);
    expect(a).toBe(b);
    expect(decodeCompletedAbove('100', a)).toEqual(set(101, 103, 105));
  });

  it('round-trips gaps, long runs and single offsets', () => {
    const completed = [
      ...strings(1001, 1002, 1003, 1010, 1500),
      ...Array.from({ length: 300 }, (_, i) => String(2000 + i)),
    ];
    const encoded = encodeCompletedAbove('1000', completed, 4000);
    expect(decodeCompletedAbove('1000', encoded)).toEqual(new Set(completed));
  });

  it('is compact for contiguous runs', () => {
    const completed = Array.from({ length: 10_000 }, (_, i) => String(51 + i));
    const encoded = encodeCompletedAbove('50', completed, 4000)!;
    expect(encoded.length).toBeLessThan(16);
    expect(decodeCompletedAbove('50', encoded).size).toBe(10_000);
  });

  it('round-trips offsets near 2^63', () => {
    const base = '9223372036854775700';
    const completed = strings(
      '9223372036854775701',
      '9223372036854775702',
      '9223372036854775750',
      '9223372036854775807',
    );
    const encoded = encodeCompletedAbove(base, completed, 4000);
    expect(decodeCompletedAbove(base, encoded)).toEqual(new Set(completed));
  });

  it('returns null when the encoding exceeds maxBytes, and respects the exact limit', () => {
    const alternating = Array.from({ length: 2000 }, (_, i) => String(1 + 2 * i));
    expect(encodeCompletedAbove('0', alternating, 4000)).toBeNull();
    const small = encodeCompletedAbove('100', strings(102, 103, 104, 110), 4000)!;
    expect(encodeCompletedAbove('100', strings(102, 103, 104, 110), small.length)).toBe(small);
    expect(encodeCompletedAbove('100', strings(102, 103, 104, 110), small.length - 1)).toBeNull();
  });

  it('throws on offsets that are not int64 decimals (programming errors)', () => {
    expect(() => encodeCompletedAbove('-1', [], 4000)).toThrow(RangeError);
    expect(() => encodeCompletedAbove('1', ['01'], 4000)).toThrow(RangeError);
    expect(() => encodeCompletedAbove('1', ['x'], 4000)).toThrow(RangeError);
  });

  it('round-trips random sets (property test)', () => {
    const random = seededRandom(42);
    for (let round = 0; round < 300; round++) {
      const base = BigInt(Math.floor(random() * 1e12));
      const completed = new Set<string>();
      const count = Math.floor(random() * 200);
      for (let i = 0; i < count; i++) completed.add((base + 1n + BigInt(Math.floor(random() * 600))).toString());
      const shuffled = [...completed].sort(() => random() - 0.5);
      const encoded = encodeCompletedAbove(base.toString(), shuffled, 1_000_000);
      expect(decodeCompletedAbove(base.toString(), encoded)).toEqual(completed);
    }
  });

  describe('decoding never throws and yields nothing for foreign input', () => {
    const valid = 'w1:100:AQIFAA';
    const varints = (...bytes: number[]) => `w1:100:${Buffer.from(bytes).toString('base64url')}`;
    const cases: Array<[string, string | null, string?]> = [
      ['null metadata', null],
      ['empty string', ''],
      ['plain text', 'committed by someone else'],
      ['other version', 'w2:100:AQIFAA'],
      ['no payload separator', 'w1:100'],
      ['extra separator', 'w1:100:AQIFAA:x'],
      ['base mismatch', valid, '101'],
      ['written base not canonical', 'w1:0100:AQIFAA'],
      ['invalid base argument', valid, '-1'],
      ['invalid base64 characters', 'w1:100:AQ+/AA=='],
      ['impossible base64 length', 'w1:100:AQIFA'],
      ['truncated varint', varints(0x81)],
      ['odd number of varints', varints(0x01)],
      ['varint longer than 10 bytes', varints(...Array(11).fill(0xff), 0x01, 0x00)],
      [
        'run beyond int64',
        `w1:9223372036854775800:${Buffer.from([0x00, 0x10]).toString('base64url')}`,
        '9223372036854775800',
      ],
    ];
    for (const [name, metadata, base = '100'] of cases) {
      it(name, () => {
        expect(decodeCompletedAbove(base, metadata)).toEqual(new Set());
      });
    }

    it('a run claiming more offsets than the cap (memory guard)', () => {
      // one run of 2^40 offsets: LEB128 of 2^40 - 1
      const huge = [];
      let value = (1n << 40n) - 1n;
      while (value >= 0x80n) {
        huge.push(Number(value & 0x7fn) | 0x80);
        value >>= 7n;
      }
      huge.push(Number(value));
      expect(decodeCompletedAbove('100', varints(0x00, ...huge))).toEqual(new Set());
      expect(decodeCompletedAbove('100', valid, { maxOffsets: 3 })).toEqual(new Set());
      expect(decodeCompletedAbove('100', valid, { maxOffsets: 4 })).toEqual(set(102, 103, 104, 110));
    });

    it('non-string metadata from a loose adapter', () => {
      expect(decodeCompletedAbove('100', 42 as unknown as string)).toEqual(new Set());
      expect(decodeCompletedAbove('100', undefined as unknown as string)).toEqual(new Set());
    });
  });
});
