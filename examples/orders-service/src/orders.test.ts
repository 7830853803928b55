import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SourceRecord } from '@warden/consumer';
import { admitOrder } from './orders';

function record(value: string | Buffer | null): SourceRecord {
  return {
    topic: 'orders',
    partition: 0,
    offset: '7',
    key: null,
    value: typeof value === 'string' ? Buffer.from(value) : value,
    timestampMs: 0,
    headers: {},
  };
}

const order = { orderId: 'o-1', customerId: 'c-9', amountCents: 1250, currency: 'EUR' };

describe('admitOrder', () => {
  it('admits an order, ordered by its customer, keeping only the order fields', () => {
    assert.deepEqual(admitOrder(record(JSON.stringify({ ...order, note: 'extra' }))), {
      ok: true,
      value: order,
      orderingKey: 'c-9',
    });
  });

  it('refuses what is not JSON, not UTF-8 or missing, each with its own class', () => {
    const refusal = (value: string | Buffer | null) => {
      const admission = admitOrder(record(value));
      assert.equal(admission.ok, false);
      return admission.ok ? '' : admission.errorClass;
    };
    assert.equal(refusal('{"orderId":'), 'malformed-json');
    assert.equal(refusal(Buffer.from([0xff, 0xfe, 0x7b])), 'malformed-json');
    assert.equal(refusal(null), 'null-value');
    assert.equal(refusal('x'.repeat(64 * 1024 + 1)), 'oversized');
  });

  it('names every invalid field of an object that is not an order', () => {
    const admission = admitOrder(
      record(JSON.stringify({ orderId: '', customerId: 5, amountCents: 12.5, currency: 'eur' })),
    );
    assert.equal(admission.ok, false);
    if (admission.ok) return;
    assert.equal(admission.errorClass, 'invalid-order');
    for (const field of ['orderId', 'customerId', 'amountCents', 'currency'])
      assert.match(admission.reason, new RegExp(field));
  });

  it('refuses a JSON value that is not an object', () => {
    for (const value of ['[]', '"order"', 'null', '42']) {
      const admission = admitOrder(record(value));
      assert.deepEqual(admission.ok ? null : admission.errorClass, 'invalid-order', value);
    }
  });

  it('refuses a negative or unsafe amount', () => {
    for (const amountCents of [-1, 2 ** 53])
      assert.equal(admitOrder(record(JSON.stringify({ ...order, amountCents }))).ok, false, String(amountCents));
  });
});
