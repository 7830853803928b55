import { describe, expect, it } from 'vitest';
import type { Admin, Consumer } from 'kafkajs';
import { loadTestConfig } from '../../test-support/test-config';
import type { Database } from '../../lib/db';
import { startLocalBroker, stopLocalBroker, type LocalBrokerOptions } from '../../scripts/lib/broker';
import { connectKafkaAndDatabase } from '../../test-support/kafka-and-database';
import { createTopic, eventually, testKafka, uniqueName } from '../../test-support/integration';
import { startPipelineConsumer, upsertEvent } from '../../test-support/pipeline-consumer';

// The stopped-polling scenario: after a transient error during reassignment, polling never resumes while
// readiness stays green. This forces that situation on the real broker: a second member joins, and
// while Warden's consumer is mid-rebalance the broker goes away. Readiness must turn red, and the consumer
// must recover by itself when the broker is back.

const config = loadTestConfig();
// Only a broker this test run started can be stopped and restarted (npm test sets WARDEN_KAFKA_HOME).
const brokerHome = config.WARDEN_KAFKA_HOME;
const broker: LocalBrokerOptions = {
  port: config.WARDEN_KAFKA_PORT,
  controllerPort: config.WARDEN_KAFKA_CONTROLLER_PORT,
  home: brokerHome,
  fresh: false,
};

describe.runIf(brokerHome !== undefined)('readiness through a broker outage during a rebalance', () => {
  const kafka = testKafka('warden-readiness-it');
  let admin: Admin;
  let db: Database;

  connectKafkaAndDatabase(kafka, (handles) => ({ admin, db } = handles));

  it(
    'reports not ready while polling cannot resume, and recovers by itself when the broker returns',
    { timeout: 300_000 },
    async () => {
      const prefix = uniqueName('ready');
      const topic = `${prefix}-in`;
      const groupId = `${prefix}-group`;
      await createTopic(admin, topic, 2);
      const storedCount = () => db.storedDocument.count({ where: { sourceTopic: topic } });

      const pipeline = await startPipelineConsumer({
        kafka,
        db,
        groupId,
        topics: [topic],
        resultsTopic: `${prefix}-results`,
        consumer: {
          readinessWindowMs: 3_000,
          restartAfterMs: 10_000,
          kafkaConsumerConfig: { sessionTimeout: 10_000, rebalanceTimeout: 10_000, heartbeatInterval: 1_000 },
        },
      });
      // Short timeouts: once the broker is back, the group must not wait a minute for these dead members.
      const intruders: Consumer[] = [];
      const joinIntruder = async () => {
        const intruder = kafka.consumer({
          groupId,
          sessionTimeout: 6_000,
          rebalanceTimeout: 6_000,
          heartbeatInterval: 1_000,
          retry: { retries: 0, restartOnFailure: async () => false },
        });
        intruders.push(intruder);
        await intruder.connect();
        await intruder.subscribe({ topic, fromBeginning: true });
        void intruder.run({ eachMessage: async () => undefined }).catch(() => undefined);
      };
      try {
        const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
        await producer.connect();
        await producer.send({
          topic,
          acks: -1,
          messages: Array.from({ length: 10 }, (_, i) => ({
            partition: i % 2,
            value: upsertEvent(i, { businessId: `${prefix}-a${i}` }),
          })),
        });
        await producer.disconnect();
        await eventually('the first records stored', async () => ((await storedCount()) === 10 ? true : undefined));
        await eventually('ready', async () => (pipeline.consumer.readiness().ready ? true : undefined));

        // A second member joins; while the group is rebalancing, the broker goes down. A rebalance can start
        // and finish between two looks at the group (or a member fail to join at all): each try that sees none
        // adds one more member, which starts a new rebalance.
        await eventually(
          'the group mid-rebalance',
          async () => {
            await joinIntruder();
            return (await watchForRebalance(admin, groupId, 8_000)) ? true : undefined;
          },
          60_000,
        );
        await stopLocalBroker(broker);

        const notReady = await eventually(
          'readiness to turn red',
          async () => {
            const readiness = pipeline.consumer.readiness();
            return readiness.ready ? undefined : readiness;
          },
          30_000,
        );
        expect(notReady.detail).toMatch(/no fetch or heartbeat|crashed|not joined/);
        await startLocalBroker(broker);
        // Intruders may have survived the outage; they leave for good, so Warden owns every partition again.
        await Promise.all(intruders.map((intruder) => intruder.disconnect().catch(() => undefined)));
        await eventually(
          'readiness to recover by itself',
          async () => (pipeline.consumer.readiness().ready ? true : undefined),
          90_000,
        );

        const after = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
        await after.connect();
        await after.send({
          topic,
          acks: -1,
          messages: Array.from({ length: 10 }, (_, i) => ({
            partition: i % 2,
            value: upsertEvent(100 + i, { businessId: `${prefix}-b${i}` }),
          })),
        });
        await after.disconnect();
        await eventually(
          'records produced after the outage stored',
          async () => ((await storedCount()) === 20 ? true : undefined),
          60_000,
        );
        expect(pipeline.consumer.readiness().ready).toBe(true);
      } finally {
        // Whatever happened, leave a running broker for the test files after this one.
        await startLocalBroker(broker);
        await Promise.all(intruders.map((intruder) => intruder.disconnect().catch(() => undefined)));
        await pipeline.stop();
      }
    },
  );
});

/** Whether the group is seen preparing or completing a rebalance within `withinMs`, looking every 25 ms. */
async function watchForRebalance(admin: Admin, groupId: string, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    const { groups } = await admin.describeGroups([groupId]);
    const state = groups[0]?.state;
    if (state === 'PreparingRebalance' || state === 'CompletingRebalance') return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}
