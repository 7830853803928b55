import type { Producer } from 'kafkajs';
import type { DemoPlan } from './demo-story';

/** Background keys: enough that the default partitioner spreads them over every partition. */
const KEYS = 24;
/** The hot key and the poison record go to fixed, different partitions so the two stories never mix. */
export const HOT_KEY = 'customer-hot';
export const HOT_PARTITION = 0;
export const POISON_PARTITION = 1;

/**
 * The demo's producer: document.upsert events (with the odd ignored heartbeat) across many keys at the plan's
 * rate, plus the hot key's extra traffic, plus one poison record on request. Sends with acks=all; a failed
 * send is reported and the next tick tries again (the demo must survive a broker restart).
 */
export class DemoTraffic {
  private readonly sequences = new Map<string, number>();
  private sent = 0;
  private carry = { background: 0, hot: 0 };

  constructor(
    private readonly producer: Producer,
    private readonly topic: string,
  ) {}

  get sentCount(): number {
    return this.sent;
  }

  /** Sends what `plan` asks for over `elapsedMs` (fractions carry over to the next tick). */
  async tick(plan: DemoPlan, elapsedMs: number): Promise<void> {
    const background = this.take('background', (plan.ratePerSec * elapsedMs) / 1_000);
    const hot = this.take('hot', (plan.hotKeyRatePerSec * elapsedMs) / 1_000);
    const messages = [
      ...Array.from({ length: background }, () => this.event(`customer-${Math.floor(Math.random() * KEYS)}`)),
      ...Array.from({ length: hot }, () => ({ ...this.event(HOT_KEY), partition: HOT_PARTITION })),
    ];
    if (messages.length === 0) return;
    await this.producer.send({ topic: this.topic, acks: -1, messages });
    this.sent += messages.length;
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

  private take(kind: 'background' | 'hot', exact: number): number {
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
