import { describe, expect, it } from 'vitest';
import { BatchingPublisher, type ProduceRequest } from './batching-publisher';

/** A send port whose requests the test settles by hand. */
function manualSend() {
  const requests: Array<{ request: ProduceRequest; settle: (error?: Error) => void }> = [];
  const send = (request: ProduceRequest) =>
    new Promise<void>((resolve, reject) => {
      requests.push({ request, settle: (error) => (error ? reject(error) : resolve()) });
    });
  return { send, requests };
}

const flush = async () => {
  for (let turn = 0; turn < 10; turn++) await Promise.resolve();
};
const keys = (request: ProduceRequest) => request.messages.map((message) => message.key);

describe('BatchingPublisher', () => {
  it('sends at once when idle, and batches what arrives while a request is in flight, in order', async () => {
    const { send, requests } = manualSend();
    const publisher = new BatchingPublisher(send, 'results');
    const settled: string[] = [];
    const track = (key: string) => publisher.publish({ key, value: key }).then(() => settled.push(key));

    void track('a');
    await flush();
    expect(requests.map((r) => keys(r.request))).toEqual([['a']]);
    expect(requests[0]!.request).toMatchObject({ topic: 'results', acks: -1 });

    void track('b');
    void track('c');
    await flush();
    expect(requests).toHaveLength(1);
    requests[0]!.settle();
    await flush();
    expect(settled).toEqual(['a']);
    expect(requests.map((r) => keys(r.request))).toEqual([['a'], ['b', 'c']]);
    requests[1]!.settle();
    await flush();
    expect(settled).toEqual(['a', 'b', 'c']);
  });

  it('rejects every publish of a failed request with its error and keeps sending later ones', async () => {
    const { send, requests } = manualSend();
    const publisher = new BatchingPublisher(send, 'results');
    const first = publisher.publish({ key: 'x', value: '1' });
    const second = publisher.publish({ key: 'y', value: '2' });
    await flush();
    expect(keys(requests[0]!.request)).toEqual(['x', 'y']);
    const error = new Error('NOT_ENOUGH_REPLICAS');
    requests[0]!.settle(error);
    await expect(first).rejects.toBe(error);
    await expect(second).rejects.toBe(error);

    const third = publisher.publish({ key: 'z', value: '3' });
    await flush();
    requests[1]!.settle();
    await expect(third).resolves.toBeUndefined();
  });

  it('tells one sink of each enqueued message by its index, acknowledged or failed with its request', async () => {
    const { send, requests } = manualSend();
    const publisher = new BatchingPublisher(send, 'results', 6);
    const told: string[] = [];
    const sink = {
      acknowledged: (index: number) => told.push(`ok ${index}`),
      failed: (index: number, error: unknown) => told.push(`failed ${index} ${(error as Error).message}`),
    };
    publisher.enqueue({ key: 'a', value: '12' }, sink, 0);
    publisher.enqueue({ key: 'b', value: '12' }, sink, 1);
    publisher.enqueue({ key: 'c', value: '12' }, sink, 2);
    await flush();
    expect(requests.map((r) => keys(r.request))).toEqual([['a', 'b']]);
    requests[0]!.settle(new Error('NOT_LEADER'));
    await flush();
    requests[1]!.settle();
    await flush();
    expect(told).toEqual(['failed 0 NOT_LEADER', 'failed 1 NOT_LEADER', 'ok 2']);
  });

  it('caps the bytes of one request (keys, values, headers), and sends a larger message alone', async () => {
    const { send, requests } = manualSend();
    const publisher = new BatchingPublisher(send, 'results', 10);
    void publisher.publish({ key: 'a', value: '1234' });
    void publisher.publish({ key: 'b', value: '1234' });
    void publisher.publish({ key: 'c', value: '12', headers: { h: '1' } });
    void publisher.publish({ key: 'd', value: Buffer.alloc(20) });
    void publisher.publish({ key: 'e', value: null });
    await flush();
    for (let index = 0; index < 3; index++) {
      requests[index]!.settle();
      await flush();
    }
    expect(requests.map((r) => keys(r.request))).toEqual([['a', 'b'], ['c'], ['d'], ['e']]);
  });

  it('refuses a byte budget that is not a positive integer', () => {
    const { send } = manualSend();
    expect(() => new BatchingPublisher(send, 'results', 0)).toThrow(
      /maxRequestBytes must be a positive integer, got 0/,
    );
  });
});
