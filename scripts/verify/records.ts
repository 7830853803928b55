import type { RecordKind } from './verdict';

// The verifiable producer's plan: every record carries its key, a per-key sequence number and a unique id
// (also in the `verify-id` header, so even malformed values can be traced to their partition and offset).

export interface PlannedRecord {
  id: string;
  key: string;
  sequence: number;
  kind: RecordKind;
}

export interface PlanOptions {
  runId: string;
  records: number;
  keys: number;
  poisonShare: number;
  malformedShare: number;
  ignoredShare: number;
}

export function planRecords(options: PlanOptions, random: () => number): PlannedRecord[] {
  const sequences = new Array<number>(options.keys).fill(0);
  return Array.from({ length: options.records }, (_, i) => {
    const keyIndex = i % options.keys;
    const draw = random();
    const kind: RecordKind =
      draw < options.poisonShare
        ? 'poison'
        : draw < options.poisonShare + options.malformedShare
          ? 'malformed'
          : draw < options.poisonShare + options.malformedShare + options.ignoredShare
            ? 'ignored'
            : 'valid';
    return { id: `${options.runId}-${i}`, key: `k${keyIndex}`, sequence: sequences[keyIndex]!++, kind };
  });
}

const MALFORMED_VARIANTS = ['bad-json', 'wrong-types', 'oversized', 'invalid-utf8', 'null-value'] as const;

/** The Kafka message for a planned record. Malformed records rotate through every kind of bad input. */
export function encodeRecord(
  record: PlannedRecord,
  index: number,
): { key: string; value: Buffer | null; headers: Record<string, string> } {
  const headers = { 'verify-id': record.id };
  const event = {
    eventId: record.id,
    type: 'document.upsert',
    businessId: record.id,
    resultKey: record.key,
    sequence: record.sequence,
    payload: { key: record.key },
  };
  const json = (value: unknown) => Buffer.from(JSON.stringify(value));
  switch (record.kind) {
    case 'valid':
      return { key: record.key, value: json(event), headers };
    case 'ignored':
      return { key: record.key, value: json({ ...event, type: 'heartbeat' }), headers };
    case 'poison': {
      const { resultKey: _missing, ...withoutKey } = event;
      return { key: record.key, value: json(withoutKey), headers };
    }
    case 'malformed': {
      const variant = MALFORMED_VARIANTS[index % MALFORMED_VARIANTS.length]!;
      const value =
        variant === 'bad-json'
          ? Buffer.from('{"eventId": "unterminated')
          : variant === 'wrong-types'
            ? json({ ...event, businessId: 42 })
            : variant === 'oversized'
              ? json({ ...event, payload: { blob: 'x'.repeat(300 * 1024) } })
              : variant === 'invalid-utf8'
                ? Buffer.from([0x7b, 0xff, 0xfe, 0x7d])
                : null;
      return { key: record.key, value, headers: { ...headers, 'verify-variant': variant } };
    }
  }
}
