import type { FetchedRecord } from '../kafka/partition-records';
import { previewOf } from '../kafka/record-preview';
import type { TDeadLetterFilter } from '../schemas/dead-letters';

/**
 * The headers naming where a dead-lettered record came from and why: the worker's dead-letter writer
 * (worker/pipeline/dead-letter.ts) puts them on each copy and decodeDeadLetter reads them. Values are strings.
 */
export const DEAD_LETTER_HEADERS = {
  topic: 'warden-source-topic',
  partition: 'warden-source-partition',
  offset: 'warden-source-offset',
  errorClass: 'warden-error-class',
  message: 'warden-error-message',
  attempts: 'warden-attempts',
} as const;

const OWN_HEADERS = new Set<string>(Object.values(DEAD_LETTER_HEADERS));

/** A dead letter as read from the topic: Warden's headers decoded, the original bytes kept for a redrive. */
export interface DeadLetterRecord {
  record: FetchedRecord;
  sourceTopic: string | null;
  sourcePartition: number | null;
  sourceOffset: string | null;
  errorClass: string | null;
  errorMessage: string | null;
  attempts: number | null;
  /** The key as the page shows it (its preview); null for a record without a key. */
  keyPreview: string | null;
}

function headerText(value: Buffer | Buffer[] | undefined): string | null {
  if (value === undefined) return null;
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? null : first.toString('utf8');
}

function integerOrNull(text: string | null): number | null {
  if (text === null || !/^\d{1,15}$/.test(text)) return null;
  return Number(text);
}

/** Never throws: a header missing or malformed (a record some other producer wrote) reads as null. */
export function decodeDeadLetter(record: FetchedRecord): DeadLetterRecord {
  const h = record.headers;
  const offset = headerText(h[DEAD_LETTER_HEADERS.offset]);
  return {
    record,
    sourceTopic: headerText(h[DEAD_LETTER_HEADERS.topic]),
    sourcePartition: integerOrNull(headerText(h[DEAD_LETTER_HEADERS.partition])),
    sourceOffset: offset !== null && /^\d{1,19}$/.test(offset) ? offset : null,
    errorClass: headerText(h[DEAD_LETTER_HEADERS.errorClass]),
    errorMessage: headerText(h[DEAD_LETTER_HEADERS.message]),
    attempts: integerOrNull(headerText(h[DEAD_LETTER_HEADERS.attempts])),
    keyPreview: record.key === null ? null : previewOf(record.key),
  };
}

/** Whether a dead letter matches every field the filter sets. */
export function matchesFilter(letter: DeadLetterRecord, filter: TDeadLetterFilter): boolean {
  if (filter.sourceTopic !== undefined && letter.sourceTopic !== filter.sourceTopic) return false;
  if (filter.sourcePartition !== undefined && letter.sourcePartition !== filter.sourcePartition) return false;
  if (filter.errorClass !== undefined && letter.errorClass !== filter.errorClass) return false;
  if (filter.key !== undefined && letter.keyPreview !== filter.key) return false;
  const ts = letter.record.timestampMs;
  if (filter.from !== undefined && ts < Date.parse(filter.from)) return false;
  if (filter.to !== undefined && ts >= Date.parse(filter.to)) return false;
  return true;
}

/** The original headers of a dead letter, without Warden's source and error headers. */
export function originalHeaders(record: FetchedRecord): Record<string, Buffer | Buffer[]> {
  return Object.fromEntries(Object.entries(record.headers).filter(([name]) => !OWN_HEADERS.has(name)));
}

/** Header previews for the page (a repeated header shows its values joined by ", "). */
export function headerPreviews(record: FetchedRecord): Record<string, string> {
  return Object.fromEntries(
    Object.entries(originalHeaders(record)).map(([name, value]) => [
      name,
      (Array.isArray(value) ? value : [value]).map((v) => previewOf(v)).join(', '),
    ]),
  );
}
