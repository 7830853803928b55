// Offset arithmetic and the compact "completed above the commit" encoding stored in commit metadata.
// Offsets stay int64 decimal strings end to end; arithmetic uses BigInt, never Number.

export const INT64_MAX = (1n << 63n) - 1n;

/** Version tag of the commit metadata format. Metadata with any other tag decodes to "nothing known". */
export const COMPLETED_ABOVE_VERSION = 'w1';

/** Decoding refuses metadata that claims more completed offsets than this (a guard against hostile input). */
export const DEFAULT_DECODE_MAX_OFFSETS = 100_000;

const DIGIT_0 = 48;
const DIGIT_9 = 57;

/** Parses a canonical non-negative int64 decimal offset; anything else (sign, spaces, leading zeros, > int64) is null. */
export function parseOffset(offset: string): bigint | null {
  // A character loop rather than a regular expression: this runs once per delivered record.
  const length = offset.length;
  if (length === 0 || length > 19 || (length > 1 && offset.charCodeAt(0) === DIGIT_0)) return null;
  for (let index = 0; index < length; index++) {
    const code = offset.charCodeAt(index);
    if (code < DIGIT_0 || code > DIGIT_9) return null;
  }
  // Up to 15 digits a double is exact, and BigInt(number) is the cheaper conversion.
  if (length <= 15) return BigInt(Number(offset));
  const value = BigInt(offset);
  return value <= INT64_MAX ? value : null;
}

function requireOffset(offset: string, what: string): bigint {
  const value = parseOffset(offset);
  if (value === null) throw new RangeError(`${what} is not a canonical int64 offset: ${JSON.stringify(offset)}`);
  return value;
}

/** The offset after `value`; throws RangeError at INT64_MAX. */
export function offsetSuccessor(value: bigint): bigint {
  if (value >= INT64_MAX) throw new RangeError(`offset ${value} has no int64 successor`);
  return value + 1n;
}

/**
 * The commit position of one partition: last offset of the completed prefix of `delivered` + 1.
 *
 * `delivered` lists the offsets actually delivered, ascending, gaps allowed (compaction, transaction
 * markers): a gap is not a hole, because no record lives there. An unfinished delivered record stops the
 * prefix, so the result never passes it: completion order is not commit order.
 * Returns null when `delivered` is empty or its first record is not complete.
 */
export function nextCommitOffset(delivered: readonly string[], completed: ReadonlySet<string>): string | null {
  let lastCompleted: string | undefined;
  for (const offset of delivered) {
    if (!completed.has(offset)) break;
    lastCompleted = offset;
  }
  if (lastCompleted === undefined) return null;
  return offsetSuccessor(requireOffset(lastCompleted, 'delivered offset')).toString();
}

// --- commit metadata: "w1:<base>:<base64url of varint pairs>" ------------------------------------------
// The payload lists runs of completed offsets strictly above `base` as unsigned LEB128 varint pairs
// (start - previousEnd - 1, length - 1), previousEnd starting at `base`. The base is repeated in the
// string so metadata read back against a different committed offset (an admin reset, another writer) is
// recognised as foreign and ignored: then records are replayed, which is the safe direction.

function writeVarint(bytes: number[], value: bigint): void {
  let rest = value;
  while (rest >= 0x80n) {
    bytes.push(Number(rest & 0x7fn) | 0x80);
    rest >>= 7n;
  }
  bytes.push(Number(rest));
}

/**
 * Encodes the completed offsets above the committed `base` ("next to read") for the commit metadata.
 * Offsets at or below `base`, duplicates and ordering of the input do not matter.
 * Returns null when the result would exceed `maxBytes`: commit without metadata, records above replay.
 */
export function encodeCompletedAbove(
  base: string,
  completedOffsets: readonly string[],
  maxBytes: number,
): string | null {
  const baseValue = requireOffset(base, 'base');
  return encodeCompletedValuesAbove(
    baseValue,
    completedOffsets.map((offset) => requireOffset(offset, 'completed offset')),
    maxBytes,
  );
}

/** encodeCompletedAbove over parsed offsets (the core's own, already valid). Ascending input skips the sort. */
export function encodeCompletedValuesAbove(
  baseValue: bigint,
  completedValues: readonly bigint[],
  maxBytes: number,
): string | null {
  const above = completedValues.filter((value) => value > baseValue);
  let ascending = true;
  for (let index = 1; index < above.length && ascending; index++) ascending = above[index - 1]! <= above[index]!;
  if (!ascending) above.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

  const bytes: number[] = [];
  let previousEnd = baseValue;
  let index = 0;
  while (index < above.length) {
    const start = above[index]!;
    let end = start;
    index++;
    while (index < above.length) {
      const next = above[index]!;
      if (next === end) {
        index++; // duplicate
      } else if (next === end + 1n) {
        end = next;
        index++;
      } else {
        break;
      }
    }
    writeVarint(bytes, start - previousEnd - 1n);
    writeVarint(bytes, end - start);
    previousEnd = end;
  }

  const encoded = `${COMPLETED_ABOVE_VERSION}:${baseValue.toString()}:${Buffer.from(bytes).toString('base64url')}`;
  return Buffer.byteLength(encoded, 'utf8') <= maxBytes ? encoded : null;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * Reads what `encodeCompletedAbove` wrote. Never throws: null, foreign, other-version, corrupt, base-mismatched
 * or oversized metadata all yield an empty set, which only costs replaying records.
 */
export function decodeCompletedAbove(
  base: string,
  metadata: string | null,
  options: { maxOffsets?: number } = {},
): Set<string> {
  const none = new Set<string>();
  try {
    if (metadata === null || metadata === undefined) return none;
    const baseValue = parseOffset(base);
    if (baseValue === null) return none;
    const parts = metadata.split(':');
    if (parts.length !== 3 || parts[0] !== COMPLETED_ABOVE_VERSION) return none;
    const [, writtenBase = '', payload = ''] = parts;
    if (parseOffset(writtenBase) !== baseValue) return none;
    if (!BASE64URL.test(payload) || payload.length % 4 === 1) return none;
    const bytes = Buffer.from(payload, 'base64url');

    const maxOffsets = options.maxOffsets ?? DEFAULT_DECODE_MAX_OFFSETS;
    let position = 0;
    const readVarint = (): bigint | null => {
      let value = 0n;
      for (let shift = 0n; shift < 70n; shift += 7n) {
        const byte = bytes[position];
        if (byte === undefined) return null;
        position++;
        value |= BigInt(byte & 0x7f) << shift;
        if ((byte & 0x80) === 0) return value;
      }
      return null;
    };

    const result = new Set<string>();
    let previousEnd = baseValue;
    while (position < bytes.length) {
      const gap = readVarint();
      const extra = gap === null ? null : readVarint();
      if (gap === null || extra === null) return none;
      const start = previousEnd + gap + 1n;
      const end = start + extra;
      if (end > INT64_MAX) return none;
      if (BigInt(result.size) + extra + 1n > BigInt(maxOffsets)) return none;
      for (let offset = start; offset <= end; offset++) result.add(offset.toString());
      previousEnd = end;
    }
    return result;
  } catch {
    return none;
  }
}
