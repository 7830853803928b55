import { describe, expect, it } from 'vitest';
import type { SourceRecord } from '@warden/consumer';
import { admitEvent, MAX_VALUE_BYTES } from './events';

function record(value: Buffer | string | null, overrides: Partial<SourceRecord> = {}): SourceRecord {
  return {
    topic: 'in',
    partition: 0,
    offset: '7',
    key: Buffer.from('k1'),
    value: typeof value === 'string' ? Buffer.from(value) : value,
    timestampMs: 0,
    headers: {},
    ...overrides,
  };
}

const valid = { eventId: 'e1', type: 'document.upsert', businessId: 'b1', resultKey: 'r1', payload: { a: 1 } };

describe('admitEvent', () => {
  it('admits a valid stored event with its result key and the record key as ordering key', () => {
    const admission = admitEvent(record(JSON.stringify(valid)));
    expect(admission).toMatchObject({
      ok: true,
      orderingKey: 'k1',
      value: { resultKey: 'r1', event: { businessId: 'b1' } },
    });
  });

  it('takes the result key from the header when the event has none', () => {
    const { resultKey: _omit, ...noKey } = valid;
    const admission = admitEvent(
      record(JSON.stringify(noKey), { headers: { 'result-key': Buffer.from('from-header') } }),
    );
    expect(admission).toMatchObject({ ok: true, value: { resultKey: 'from-header' } });
  });

  it('rejects a stored event that cannot derive a result key (the poison record)', () => {
    const { resultKey: _omit, ...noKey } = valid;
    expect(admitEvent(record(JSON.stringify(noKey)))).toMatchObject({ ok: false, errorClass: 'missing-result-key' });
  });

  it('admits ignored types without a result key, and uses the business id when the record has no key', () => {
    const admission = admitEvent(
      record(JSON.stringify({ eventId: 'e2', type: 'heartbeat', businessId: 'b2' }), { key: null }),
    );
    expect(admission).toMatchObject({ ok: true, orderingKey: 'b2', value: { resultKey: null } });
  });

  it.each([
    ['null value', null, 'null-value'],
    ['malformed JSON', '{"eventId": ', 'malformed-json'],
    ['invalid UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), 'invalid-utf8'],
    ['wrong types', JSON.stringify({ ...valid, businessId: 42 }), 'invalid-event'],
    ['unknown type', JSON.stringify({ ...valid, type: 'document.delete' }), 'invalid-event'],
    ['a JSON array', '[1,2]', 'invalid-event'],
    ['oversized', Buffer.alloc(MAX_VALUE_BYTES + 1, 0x20), 'oversized'],
  ])('rejects %s with a readable reason', (_name, value, errorClass) => {
    const admission = admitEvent(record(value));
    expect(admission.ok).toBe(false);
    if (!admission.ok) {
      expect(admission.errorClass).toBe(errorClass);
      expect(admission.reason.length).toBeGreaterThan(10);
    }
  });

  it('ignores unknown headers', () => {
    const admission = admitEvent(
      record(JSON.stringify(valid), { headers: { 'x-unknown': Buffer.from([0xff]), other: undefined } }),
    );
    expect(admission.ok).toBe(true);
  });
});
