import { z } from 'zod';
import type { Admission, SourceRecord } from '@warden/consumer';

// The default pipeline's input contract. Admission decides, before a record takes an execution slot,
// whether it can ever complete: it decodes, it validates, and, when it must publish a result, its result
// key can be derived (a record without one can never publish even its error result).

/** Types the pipeline stores and answers with a result event. */
export const STORED_TYPES = ['document.upsert'] as const;
/** Types the pipeline reads and deliberately ignores: they complete with no result and need no key. */
export const IGNORED_TYPES = ['document.viewed', 'heartbeat'] as const;

export const MAX_VALUE_BYTES = 256 * 1024;

export const ZInputEvent = z.object({
  /** Unique per event; makes redelivery and duplicates traceable. */
  eventId: z.string().min(1).max(200),
  type: z.enum([...STORED_TYPES, ...IGNORED_TYPES]),
  /** The stored document's identity: upserts by it are idempotent. */
  businessId: z.string().min(1).max(200),
  /** Key of the result event; required for stored types. */
  resultKey: z.string().min(1).max(200).optional(),
  /** Per-key sequence, used by the verifier to check ordering. */
  sequence: z.number().int().min(0).optional(),
  payload: z.record(z.string(), z.unknown()).default({}),
});
export type TInputEvent = z.infer<typeof ZInputEvent>;

export interface AdmittedEvent {
  event: TInputEvent;
  /** null for ignored types: nothing is published. */
  resultKey: string | null;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Admission of one raw record. Never throws: every failure is a reason the operator can read. */
export function admitEvent(record: SourceRecord): Admission<AdmittedEvent> {
  const reject = (errorClass: string, reason: string): Admission<AdmittedEvent> => ({ ok: false, errorClass, reason });
  if (record.value === null) return reject('null-value', 'record value is null (tombstone); an event is required');
  if (record.value.length > MAX_VALUE_BYTES) {
    return reject('oversized', `record value is ${record.value.length} bytes; the limit is ${MAX_VALUE_BYTES}`);
  }
  let text: string;
  try {
    text = strictUtf8.decode(record.value);
  } catch {
    return reject('invalid-utf8', 'record value is not valid UTF-8');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return reject('malformed-json', `record value is not JSON: ${(error as Error).message}`);
  }
  const parsed = ZInputEvent.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    return reject('invalid-event', `event does not match the schema: ${issues}`);
  }
  const event = parsed.data;
  const mustPublish = (STORED_TYPES as readonly string[]).includes(event.type);
  const resultKey = mustPublish ? deriveResultKey(event, record) : null;
  if (mustPublish && resultKey === null) {
    return reject(
      'missing-result-key',
      `a ${event.type} event must carry resultKey (or a result-key header) to publish its result`,
    );
  }
  return { ok: true, value: { event, resultKey }, orderingKey: orderingKeyOf(record, event) };
}

/** The result key: the event's own, else the `result-key` header. */
export function deriveResultKey(event: TInputEvent, record: SourceRecord): string | null {
  if (event.resultKey) return event.resultKey;
  const header = record.headers['result-key'];
  const fromHeader = header === undefined ? '' : header.toString();
  return fromHeader.length > 0 ? fromHeader : null;
}

/** Key-mode lanes follow the record key (what the producer partitioned by), else the business id. */
function orderingKeyOf(record: SourceRecord, event: TInputEvent): string {
  return record.key !== null && record.key.length > 0 ? record.key.toString('utf8') : event.businessId;
}
