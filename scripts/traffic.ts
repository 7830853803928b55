// Demo traffic: document.upsert events across a few keys at DEMO_RATE_PER_SEC, with the odd ignored
// heartbeat, into the configured input topic. Stops on SIGTERM/SIGINT after flushing what it sent.
import { loadConfig } from '../lib/config';
import { createKafka } from '../worker/kafka/client';

const KEYS = 24;

async function main(): Promise<void> {
  const config = loadConfig();
  const kafka = createKafka({ brokers: config.kafkaBrokers, clientId: 'warden-demo-traffic' });
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  await producer.connect();
  const sequences = new Array<number>(KEYS).fill(0);
  let stopping = false;
  let sent = 0;
  const stop = () => (stopping = true);
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);

  const tickMs = 200;
  while (!stopping) {
    const started = Date.now();
    const perTick = Math.max(0, Math.round((config.DEMO_RATE_PER_SEC * tickMs) / 1000));
    const messages = Array.from({ length: perTick }, () => {
      const key = Math.floor(Math.random() * KEYS);
      const sequence = sequences[key]!++;
      const customer = `customer-${key}`;
      const heartbeat = Math.random() < 0.05;
      return {
        key: customer,
        value: JSON.stringify({
          eventId: `${customer}-${sequence}`,
          type: heartbeat ? 'heartbeat' : 'document.upsert',
          businessId: `${customer}/doc-${sequence % 50}`,
          resultKey: customer,
          sequence,
          payload: { amount: Math.round(Math.random() * 10_000) / 100, at: new Date().toISOString() },
        }),
      };
    });
    if (messages.length > 0) {
      await producer.send({ topic: config.WARDEN_INPUT_TOPIC, acks: -1, messages });
      sent += messages.length;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, tickMs - (Date.now() - started))));
  }
  await producer.disconnect();
  console.log(`traffic: sent ${sent} events`);
}

main().catch((error: Error) => {
  console.error(`traffic: ${error.message}`);
  process.exit(1);
});
