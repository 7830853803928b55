import type { Admission, SourceRecord } from '@warden/consumer';

// The input contract: one JSON order per record. Admission runs before a record takes an execution slot and
// never throws: a record that can never be stored is refused with a reason, and the consumer quarantines its
// partition at that offset (quarantinePolicy 'pause') until an operator resumes, skips or seeks past it.

export interface Order {
  orderId: string;
  customerId: string;
  amountCents: number;
  /** ISO 4217 code, e.g. EUR. */
  currency: string;
}

const MAX_VALUE_BYTES = 64 * 1024;
const MAX_ID_LENGTH = 128;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes and validates one record; the ordering key is the customer, so one customer's orders stay in order. */
export function admitOrder(record: SourceRecord): Admission<Order> {
  const refuse = (errorClass: string, reason: string): Admission<Order> => ({ ok: false, errorClass, reason });
  if (record.value === null) return refuse('null-value', 'the record has no value (a tombstone); an order is required');
  if (record.value.length > MAX_VALUE_BYTES)
    return refuse('oversized', `the value is ${record.value.length} bytes; an order is at most ${MAX_VALUE_BYTES}`);
  let json: unknown;
  try {
    json = JSON.parse(strictUtf8.decode(record.value));
  } catch (error) {
    return refuse('malformed-json', `the value is not UTF-8 JSON: ${(error as Error).message}`);
  }
  const problems = orderProblems(json);
  if (problems.length > 0) return refuse('invalid-order', `not an order: ${problems.join('; ')}`);
  const order = json as Order;
  return {
    ok: true,
    value: {
      orderId: order.orderId,
      customerId: order.customerId,
      amountCents: order.amountCents,
      currency: order.currency,
    },
    orderingKey: order.customerId,
  };
}

/** What is wrong with a decoded value as an order; empty when it is one. */
function orderProblems(json: unknown): string[] {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return ['the value is not a JSON object'];
  const fields = json as Record<string, unknown>;
  const problems: string[] = [];
  for (const name of ['orderId', 'customerId']) {
    const value = fields[name];
    if (typeof value !== 'string' || value.length === 0 || value.length > MAX_ID_LENGTH)
      problems.push(`${name} must be a string of 1-${MAX_ID_LENGTH} characters`);
  }
  const amount = fields.amountCents;
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 0)
    problems.push('amountCents must be a whole number of cents, 0 or more');
  if (typeof fields.currency !== 'string' || !/^[A-Z]{3}$/.test(fields.currency))
    problems.push('currency must be a three-letter ISO 4217 code such as EUR');
  return problems;
}
