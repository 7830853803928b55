import type { Producer } from 'kafkajs';
import type { DemoPlan } from './demo-story';

/** Background keys: enough that the default partitioner spreads them over every partition. */
const KEYS = 24;
/** The hot key and the poison record go to fixed, different partitions so the two stories never mix. */
export const HOT_KEY = 'customer-hot';
export const HOT_PARTITION = 0;
export const POISON_PARTITION = 1;
/** The orders service's malformed order goes to this partition of its topic. */
export const MALFORMED_ORDER_PARTITION = 2;
/** Customers of the demo's orders; one customer's orders are handled in order (the service's ordering key). */
const ORDER_CUSTOMERS = 12;
const CURRENCIES = ['EUR', 'USD', 'GBP'] as const;

/** The orders service's input contract (examples/orders-service/src/orders.ts): one JSON order per record. */
export interface DemoOrder {
  orderId: string;
  customerId: string;
  amountCents: number;
  currency: string;
}

/**
 * The demo's `sequence`th order of the run `runId` (unique per demo run, so a new run's orders never meet
 * the rows the service stored in an earlier one), keyed by its customer.
 */
export function demoOrder(runId: string, sequence: number, random: () => number = Math.random) {
  const order: DemoOrder = {
    orderId: `order-${runId}-${sequence}`,
    customerId: `customer-${sequence % ORDER_CUSTOMERS}`,
    amountCents: 100 + Math.floor(random() * 20_000),
    currency: CURRENCIES[sequence % CURRENCIES.length]!,
  };
  return { key: order.customerId, value: JSON.stringify(order) };
}

/**
 * A record the orders service refuses as not an order (valid JSON, wrong fields): it quarantines its
 * partition at this record until an operator acts in Warden.
 */
export function malformedOrder(runId: string) {
  return {
    key: 'customer-malformed',
    partition: MALFORMED_ORDER_PARTITION,
    value: JSON.stringify({
      orderId: `order-${runId}-malformed`,
      customerId: 'customer-malformed',
      amountCents: '12,50',
      currency: 'euro',
    }),
  };
}

/** One record of the short-retention audit topic, to partition `sequence` modulo `partitions`. */
export function auditRecord(sequence: number, partitions: number, at: Date = new Date()) {
  return {
    partition: sequence % partitions,
    key: `audit-${sequence}`,
    value: JSON.stringify({ auditId: sequence, action: 'document.viewed', at: at.toISOString() }),
  };
}

/** What the producer sends, each at its own rate (fractions carry over between ticks). */
type TrafficKind = 'background' | 'hot' | 'orders' | 'audit';

export interface DemoTrafficTopics {
  /** The worker's input topic. */
  topic: string;
  /** The orders service's topic; null when the demo runs without the service (no orders). */
  ordersTopic?: string | null;
  /** The short-retention audit topic and its partitions (scripts/demo/demo-archiver.ts); null: no audit records. */
  audit?: { topic: string; partitions: number } | null;
  /** Unique per demo run, so a new run's orders never meet the rows the service stored in an earlier one. */
  runId?: string;
}

/**
 * The demo's producer: document.upsert events (with the odd ignored heartbeat) across many keys at the plan's
 * rate, plus the hot key's extra traffic, plus one poison record on request; when it has the orders service's
 * topic, orders at the plan's orders rate and one malformed order on request; when it has the audit topic, audit
 * records at the plan's audit rate, spread evenly over its partitions. Sends with acks=all; a failed send is
 * reported and the next tick tries again (the demo must survive a broker restart).
 */
export class DemoTraffic {
  private readonly sequences = new Map<string, number>();
  private sent = 0;
  private ordersSent = 0;
  private auditSent = 0;
  private carry: Record<TrafficKind, number> = { background: 0, hot: 0, orders: 0, audit: 0 };
  private readonly topic: string;
  private readonly ordersTopic: string | null;
  private readonly audit: { topic: string; partitions: number } | null;
  private readonly runId: string;

  constructor(
    private readonly producer: Pick<Producer, 'send' | 'sendBatch'>,
    topics: DemoTrafficTopics,
  ) {
    this.topic = topics.topic;
    this.ordersTopic = topics.ordersTopic ?? null;
    this.audit = topics.audit ?? null;
    this.runId = topics.runId ?? Date.now().toString(36);
  }

  get sentCount(): number {
    return this.sent;
  }

  /** Orders sent to the orders service (the malformed one not counted). */
  get ordersSentCount(): number {
    return this.ordersSent;
  }

  /** Records sent to the audit topic. */
  get auditSentCount(): number {
    return this.auditSent;
  }

  /** Sends what `plan` asks for over `elapsedMs` (fractions carry over to the next tick), in one request. */
  async tick(plan: DemoPlan, elapsedMs: number): Promise<void> {
    const background = this.take('background', (plan.ratePerSec * elapsedMs) / 1_000);
    const hot = this.take('hot', (plan.hotKeyRatePerSec * elapsedMs) / 1_000);
    const orders = this.ordersTopic === null ? 0 : this.take('orders', (plan.ordersRatePerSec * elapsedMs) / 1_000);
    const messages = [
      ...Array.from({ length: background }, () => this.event(`customer-${Math.floor(Math.random() * KEYS)}`)),
      ...Array.from({ length: hot }, () => ({ ...this.event(HOT_KEY), partition: HOT_PARTITION })),
    ];
    const orderMessages = Array.from({ length: orders }, (_, i) => demoOrder(this.runId, this.ordersSent + i));
    const audit = this.audit;
    const auditMessages =
      audit === null
        ? []
        : Array.from({ length: this.take('audit', (plan.auditRatePerSec * elapsedMs) / 1_000) }, (_, i) =>
            auditRecord(this.auditSent + i, audit.partitions),
          );
    const topicMessages = [
      ...(messages.length > 0 ? [{ topic: this.topic, messages }] : []),
      ...(this.ordersTopic !== null && orderMessages.length > 0
        ? [{ topic: this.ordersTopic, messages: orderMessages }]
        : []),
      ...(audit !== null && auditMessages.length > 0 ? [{ topic: audit.topic, messages: auditMessages }] : []),
    ];
    if (topicMessages.length === 0) return;
    await this.producer.sendBatch({ acks: -1, topicMessages });
    this.sent += messages.length;
    this.ordersSent += orderMessages.length;
    this.auditSent += auditMessages.length;
  }

  /** The orders service's malformed order (malformedOrder); throws when the demo runs without the service. */
  async sendMalformedOrder(): Promise<void> {
    if (this.ordersTopic === null) throw new Error('the demo runs without the orders service: no topic to send to');
    await this.producer.send({ topic: this.ordersTopic, acks: -1, messages: [malformedOrder(this.runId)] });
  }

  /** A record no admission check accepts (not JSON): the worker quarantines its partition before running it. */
  async sendPoison(): Promise<void> {
    await this.producer.send({
      topic: this.topic,
      acks: -1,
      messages: [
        { key: 'customer-poison', partition: POISON_PARTITION, value: '{"eventId": "truncated-by-a-buggy-producer' },
      ],
    });
  }

  private take(kind: TrafficKind, exact: number): number {
    const total = this.carry[kind] + exact;
    const whole = Math.floor(total);
    this.carry[kind] = total - whole;
    return whole;
  }

  private event(customer: string) {
    const sequence = this.sequences.get(customer) ?? 0;
    this.sequences.set(customer, sequence + 1);
    const heartbeat = Math.random() < 0.05;
    return {
      key: customer,
      value: JSON.stringify({
        eventId: `${customer}-${sequence}-${Date.now()}`,
        type: heartbeat ? 'heartbeat' : 'document.upsert',
        businessId: `${customer}/doc-${sequence % 50}`,
        resultKey: customer,
        sequence,
        payload: { amount: Math.round(Math.random() * 10_000) / 100, at: new Date().toISOString() },
      }),
    };
  }
}
