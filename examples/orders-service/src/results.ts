import type { Producer } from 'kafkajs';
import type { Order } from './orders';

// The answer to every stored order, keyed by its id so all answers about one order land in one partition.

export interface OrderResult {
  orderId: string;
  status: 'accepted';
}

/**
 * Publishes `{ orderId, status: 'accepted' }` and resolves once every in-sync replica has it (acks -1; the
 * producer is idempotent, so its own retries never duplicate it). A redelivered order is answered again.
 */
export async function publishAccepted(producer: Producer, topic: string, order: Order): Promise<void> {
  const result: OrderResult = { orderId: order.orderId, status: 'accepted' };
  await producer.send({ topic, acks: -1, messages: [{ key: order.orderId, value: JSON.stringify(result) }] });
}
