import type { Producer } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { makeRecord } from '@warden/consumer/testing';
import type { BatchItem } from '@warden/consumer';
import { createDocumentPipeline } from './document-pipeline';
import { admitEvent, type AdmittedEvent } from './events';

// The batch's joint outcomes, with fakes for the store and the producer: `null` means complete, so a failure
// whose reason is null or undefined must still come out as a failure.

function batchOf(count: number): BatchItem<AdmittedEvent>[] {
  return Array.from({ length: count }, (_, index) => {
    const record = makeRecord(index, {
      value: JSON.stringify({
        eventId: `e${index}`,
        type: 'document.upsert',
        businessId: `b${index}`,
        resultKey: `r${index}`,
      }),
    });
    const admission = admitEvent(record);
    if (!admission.ok) throw new Error(admission.reason);
    return { value: admission.value, record, context: { attempt: 1 }, previous: null };
  });
}

/** A producer acknowledging every request, or rejecting every one with `rejection.reason` (which may be undefined). */
const acknowledgingProducer = (rejection?: { reason: unknown }) =>
  ({
    send: () => (rejection === undefined ? Promise.resolve([]) : Promise.reject(rejection.reason)),
  }) as unknown as Producer;

describe('the document pipeline, batch outcomes', () => {
  it('answers null for every record whose result was acknowledged', async () => {
    const pipeline = createDocumentPipeline({
      sql: { query: async () => undefined },
      producer: acknowledgingProducer(),
      resultsTopic: 'results',
    });
    await expect(pipeline.handleBatch(batchOf(3))).resolves.toEqual([null, null, null]);
  });

  it('turns a failure without a reason (a hook, the store or the publish rejecting with undefined) into an error', async () => {
    const hooked = createDocumentPipeline({
      sql: { query: async () => undefined },
      producer: acknowledgingProducer(),
      resultsTopic: 'results',
      beforeStore: (_admitted, record) => (record.offset === '1' ? Promise.reject(undefined) : undefined),
    });
    const [first, second] = await hooked.handleBatch(batchOf(2));
    expect(first).toBeNull();
    expect(second).toBeInstanceOf(Error);

    const storeDown = createDocumentPipeline({
      sql: { query: () => Promise.reject(undefined) },
      producer: acknowledgingProducer(),
      resultsTopic: 'results',
    });
    for (const outcome of await storeDown.handleBatch(batchOf(2))) expect(outcome).toBeInstanceOf(Error);

    const publishFails = createDocumentPipeline({
      sql: { query: async () => undefined },
      producer: acknowledgingProducer({ reason: undefined }),
      resultsTopic: 'results',
    });
    for (const outcome of await publishFails.handleBatch(batchOf(2))) expect(outcome).toBeInstanceOf(Error);
  });
});
