import type { Producer, ProducerRecord } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { classifyPipelineError } from '../pipeline/classify-error';
import { createRenewingProducer, isProducerStateError, ProducerRenewedError } from './renewing-producer';

/** A kafkajs protocol error as kafkajs raises it (name, type, retriable). */
function protocolError(type: string, retriable = false): Error {
  return Object.assign(new Error(`broker said ${type}`), { name: 'KafkaJSProtocolError', type, retriable });
}

/** A fake producer whose sends fail with the queued errors, then succeed; it records what it did. */
function fakeProducer(id: number, failures: Error[], log: string[]): Producer {
  return {
    connect: async () => void log.push(`connect ${id}`),
    disconnect: async () => void log.push(`disconnect ${id}`),
    send: async (record: ProducerRecord) => {
      log.push(`send ${id} ${record.topic}`);
      const failure = failures.shift();
      if (failure) throw failure;
      return [{ topicName: record.topic, partition: 0, errorCode: 0, baseOffset: '0' }];
    },
  } as unknown as Producer;
}

describe('createRenewingProducer', () => {
  const record: ProducerRecord = { topic: 'results', acks: -1, messages: [{ value: 'x' }] };

  it('replaces a producer whose sequence the broker rejects, and the retried send goes out on the new one', async () => {
    const log: string[] = [];
    const failures = [[protocolError('OUT_OF_ORDER_SEQUENCE_NUMBER')], []];
    let made = 0;
    const producer = createRenewingProducer({
      create: () => fakeProducer(++made, failures[made - 1] ?? [], log),
    });
    await producer.connect();
    const failed = await producer.send(record).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ProducerRenewedError);
    // The record's retry: transient, not the permanent failure that dead-lettered valid records.
    expect(classifyPipelineError(failed)).toBe('transient');
    await expect(producer.send(record)).resolves.toHaveLength(1);
    expect(log).toEqual(['connect 1', 'send 1 results', 'disconnect 1', 'connect 2', 'send 2 results']);
  });

  it('passes every other error through unchanged and keeps its producer', async () => {
    const log: string[] = [];
    const tooLarge = protocolError('MESSAGE_TOO_LARGE');
    const producer = createRenewingProducer({ create: () => fakeProducer(1, [tooLarge], log) });
    await producer.connect();
    await expect(producer.send(record)).rejects.toBe(tooLarge);
    expect(classifyPipelineError(tooLarge)).toBe('permanent');
    await producer.send(record);
    expect(log).toEqual(['connect 1', 'send 1 results', 'send 1 results']);
  });

  it('renews once when sends in flight together all fail on the old producer', async () => {
    const log: string[] = [];
    const renewals: unknown[] = [];
    let made = 0;
    const producer = createRenewingProducer({
      create: () =>
        fakeProducer(
          ++made,
          made === 1 ? [protocolError('UNKNOWN_PRODUCER_ID'), protocolError('UNKNOWN_PRODUCER_ID')] : [],
          log,
        ),
      onRenew: (cause) => renewals.push(cause),
    });
    await producer.connect();
    const results = await Promise.allSettled([producer.send(record), producer.send(record)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(renewals).toHaveLength(1);
    expect(made).toBe(2);
    await producer.disconnect();
    expect(log.at(-1)).toBe('disconnect 2');
  });

  it('connects the renewed producer again on the next send when its first connect failed', async () => {
    const log: string[] = [];
    let made = 0;
    let refuseConnects = 0;
    const producer = createRenewingProducer({
      create: () => {
        const id = ++made;
        const fake = fakeProducer(id, id === 1 ? [protocolError('OUT_OF_ORDER_SEQUENCE_NUMBER')] : [], log);
        const connect = fake.connect.bind(fake);
        fake.connect = async () => {
          if (refuseConnects-- > 0) {
            log.push(`connect ${id} refused`);
            throw Object.assign(new Error('connect ECONNREFUSED'), { name: 'KafkaJSConnectionError' });
          }
          await connect();
        };
        return fake;
      },
    });
    await producer.connect();
    refuseConnects = 1;
    await expect(producer.send(record)).rejects.toBeInstanceOf(ProducerRenewedError);
    await Promise.resolve();
    await expect(producer.send(record)).resolves.toHaveLength(1);
    expect(log).toEqual([
      'connect 1',
      'send 1 results',
      'disconnect 1',
      'connect 2 refused',
      'connect 2',
      'send 2 results',
    ]);
  });
});

describe('isProducerStateError', () => {
  it('knows the lost-state errors, also as a cause, and nothing else', () => {
    expect(isProducerStateError(protocolError('OUT_OF_ORDER_SEQUENCE_NUMBER'))).toBe(true);
    expect(isProducerStateError({ cause: protocolError('INVALID_PRODUCER_EPOCH') })).toBe(true);
    expect(isProducerStateError(protocolError('NOT_LEADER_OR_FOLLOWER', true))).toBe(false);
    expect(isProducerStateError(new Error('Connection terminated'))).toBe(false);
  });
});
