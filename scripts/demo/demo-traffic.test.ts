import type { Message, ProducerBatch, ProducerRecord, RecordMetadata } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { planAt, type DemoPlan } from './demo-story';
import {
  DemoTraffic,
  demoOrder,
  HOT_KEY,
  HOT_PARTITION,
  MALFORMED_ORDER_PARTITION,
  malformedOrder,
} from './demo-traffic';

/** What the demo's producer was asked to send, by topic. */
class RecordingProducer {
  readonly sent: Array<{ topic: string; messages: Message[] }> = [];
  readonly acks: number[] = [];

  async send(record: ProducerRecord): Promise<RecordMetadata[]> {
    this.sent.push({ topic: record.topic, messages: record.messages });
    this.acks.push(record.acks ?? 1);
    return [];
  }

  async sendBatch(batch: ProducerBatch): Promise<RecordMetadata[]> {
    for (const { topic, messages } of batch.topicMessages ?? []) this.sent.push({ topic, messages });
    this.acks.push(batch.acks ?? 1);
    return [];
  }

  on(topic: string): Message[] {
    return this.sent.filter((s) => s.topic === topic).flatMap((s) => s.messages);
  }
}

const plan: DemoPlan = {
  ratePerSec: 10,
  hotKeyRatePerSec: 5,
  secondWorker: false,
  plainConsumer: false,
  ordersRatePerSec: 2,
  auditRatePerSec: 4,
  archiver: false,
  archiverStalled: false,
};

/** The orders service's input contract (examples/orders-service/README.md), as its admission checks it. */
function isOrder(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const order = value as Record<string, unknown>;
  const id = (field: unknown) => typeof field === 'string' && field.length >= 1 && field.length <= 128;
  return (
    id(order.orderId) &&
    id(order.customerId) &&
    typeof order.amountCents === 'number' &&
    Number.isSafeInteger(order.amountCents) &&
    order.amountCents >= 0 &&
    typeof order.currency === 'string' &&
    /^[A-Z]{3}$/.test(order.currency)
  );
}

describe('DemoTraffic', () => {
  it("sends the plan's rates over the elapsed time, orders to the orders service's topic, all with acks=all", async () => {
    const producer = new RecordingProducer();
    const traffic = new DemoTraffic(producer, { topic: 'events', ordersTopic: 'orders', runId: 'run1' });
    // 0.2 s ticks: 2 events, 1 hot-key event and 0.4 orders each; fractions carry over.
    for (let i = 0; i < 10; i++) await traffic.tick(plan, 200);
    expect(producer.on('events')).toHaveLength(30);
    expect(producer.on('events').filter((m) => m.key === HOT_KEY && m.partition === HOT_PARTITION)).toHaveLength(10);
    const orders = producer.on('orders');
    expect(orders).toHaveLength(4);
    expect(traffic.sentCount).toBe(30);
    expect(traffic.ordersSentCount).toBe(4);
    expect(producer.acks.every((acks) => acks === -1)).toBe(true);

    // Every order is one the service stores, keyed by its customer, each with its own id.
    const values = orders.map((m) => JSON.parse(String(m.value)) as { orderId: string; customerId: string });
    expect(values.every(isOrder)).toBe(true);
    expect(orders.map((m) => m.key)).toEqual(values.map((v) => v.customerId));
    expect(new Set(values.map((v) => v.orderId)).size).toBe(4);
    expect(values.map((v) => v.orderId)).toEqual(['order-run1-0', 'order-run1-1', 'order-run1-2', 'order-run1-3']);
  });

  it('sends audit records at their rate, spread evenly over the audit partitions, only when it has the topic', async () => {
    const producer = new RecordingProducer();
    const traffic = new DemoTraffic(producer, { topic: 'events', audit: { topic: 'audit', partitions: 2 } });
    // 0.2 s ticks at 4/s: 0.8 each, fractions carried: 8 in 2 s.
    for (let i = 0; i < 10; i++) await traffic.tick(plan, 200);
    const audit = producer.on('audit');
    expect(audit).toHaveLength(8);
    expect(traffic.auditSentCount).toBe(8);
    expect(audit.map((m) => m.partition)).toEqual([0, 1, 0, 1, 0, 1, 0, 1]);
    expect(new Set(audit.map((m) => m.key)).size).toBe(8);

    const without = new RecordingProducer();
    const withoutAudit = new DemoTraffic(without, { topic: 'events' });
    for (let i = 0; i < 10; i++) await withoutAudit.tick(plan, 200);
    expect(without.on('audit')).toHaveLength(0);
  });

  it('sends no orders without the orders service, and refuses its malformed order then', async () => {
    const producer = new RecordingProducer();
    const traffic = new DemoTraffic(producer, { topic: 'events' });
    await traffic.tick(plan, 5_000);
    expect(producer.sent.map((s) => s.topic)).toEqual(['events']);
    expect(traffic.ordersSentCount).toBe(0);
    await expect(traffic.sendMalformedOrder()).rejects.toThrow(/without the orders service/);
  });

  it('sends nothing for a tick too short for a whole record', async () => {
    const producer = new RecordingProducer();
    await new DemoTraffic(producer, { topic: 'events', ordersTopic: 'orders' }).tick(plan, 10);
    expect(producer.sent).toEqual([]);
  });

  it('sends the malformed order alone, to its partition of the orders topic', async () => {
    const producer = new RecordingProducer();
    await new DemoTraffic(producer, { topic: 'events', ordersTopic: 'orders', runId: 'run2' }).sendMalformedOrder();
    expect(producer.sent).toEqual([{ topic: 'orders', messages: [malformedOrder('run2')] }]);
    expect(producer.sent[0]!.messages[0]!.partition).toBe(MALFORMED_ORDER_PARTITION);
  });
});

describe('demo orders', () => {
  it("are orders by the service's contract, a few customers in turn, ids unique per run", () => {
    const orders = Array.from({ length: 30 }, (_, i) => demoOrder('r', i, () => 0.5));
    const values = orders.map(
      (o) => JSON.parse(o.value) as { orderId: string; customerId: string; amountCents: number },
    );
    expect(values.every(isOrder)).toBe(true);
    expect(new Set(values.map((v) => v.customerId)).size).toBe(12);
    expect(values[0]).toMatchObject({ orderId: 'order-r-0', customerId: 'customer-0', amountCents: 10_100 });
    expect(demoOrder('other-run', 0).value).not.toBe(demoOrder('r', 0).value);
    // Amounts stay whole cents within their range whatever the random draw.
    for (const draw of [0, 0.999_999])
      expect(JSON.parse(demoOrder('r', 1, () => draw).value).amountCents).toBeLessThanOrEqual(20_100);
  });

  it('the malformed one is valid JSON but not an order, so the service quarantines it', () => {
    const message = malformedOrder('r');
    const value = JSON.parse(message.value) as unknown;
    expect(isOrder(value)).toBe(false);
    expect(value).toMatchObject({ orderId: 'order-r-malformed', amountCents: '12,50', currency: 'euro' });
  });

  it("the story's plans carry the orders rate in both scenarios", () => {
    const settings = { steadyRatePerSec: 20, surgeRatePerSec: 300, hotKeyRatePerSec: 15 };
    expect(planAt(0, { ...settings, scenario: 'story' }).ordersRatePerSec).toBeGreaterThan(0);
    expect(planAt(0, { ...settings, scenario: 'steady' }).ordersRatePerSec).toBeGreaterThan(0);
  });
});
