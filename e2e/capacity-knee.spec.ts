import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { Admin, Consumer, Kafka } from 'kafkajs';
import { loadTestConfig } from '../test-support/test-config';
import { commitOffsets } from '../test-support/commit-offsets';
import { testKafka, uniqueName } from '../test-support/integration';
import { OPERATOR } from '../test-support/credentials';
import { ARTIFACTS, createTopicWhenReady, signIn, startWorker, type WorkerProcess } from './support';

// The capacity card's knee on real parts: a backlog that sits on one partition, drained by one plain kafkajs
// consumer at about 15 records/s, sampled by a real worker whose include pattern names the group. Two things
// the group needs before the card can plan at all: the worker's sampler must include it (a group outside
// SAMPLER_GROUP_INCLUDE is never sampled and its page says so), and its consumer must commit while it drains
// (kafkajs commits only once a whole fetched batch is done unless autoCommitInterval is set, and the 6,000
// records here are one batch: minutes without a commit, so no processing rate).

const PARTITIONS = 3;
const BACKLOG = 6_000;
const PER_RECORD_MS = 65;

const topic = uniqueName('e2e-knee-in');
const groupId = uniqueName('e2e-knee-group');
const workerPrefix = uniqueName('e2e-knee-worker');

let kafka: Kafka;
let admin: Admin;
let worker: WorkerProcess | undefined;
let consumer: Consumer | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  kafka = testKafka('warden-e2e-knee');
  admin = kafka.admin();
  await admin.connect();
  await createTopicWhenReady(admin, topic, PARTITIONS);
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    for (let from = 0; from < BACKLOG; from += 500) {
      await producer.send({
        topic,
        acks: -1,
        messages: Array.from({ length: 500 }, (_, i) => ({ partition: 0, value: `knee-${from + i}` })),
      });
    }
  } finally {
    await producer.disconnect();
  }
  // Committed at 0 before the consumer starts, so every partition's backlog is known from the first sample.
  await commitOffsets(
    kafka,
    groupId,
    topic,
    Array.from({ length: PARTITIONS }, (_, partition) => ({ partition, offset: '0' })),
  );

  worker = startWorker({
    WARDEN_GROUP_ID: `${workerPrefix}-pipeline`,
    WARDEN_INPUT_TOPIC: `${workerPrefix}-events`,
    WARDEN_RESULTS_TOPIC: `${workerPrefix}-results`,
    WARDEN_DLQ_TOPIC: `${workerPrefix}-dlq`,
    WARDEN_INPUT_PARTITIONS: '1',
    WORKER_PORT: String(loadTestConfig().WORKER_PORT + 6),
    SAMPLER_GROUP_INCLUDE: `^${groupId}$`,
    LOG_LEVEL: 'warn',
  });

  // Commits every second while it drains (see above); one record at a time, ~15 records/s.
  consumer = kafka.consumer({ groupId });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    autoCommitInterval: 1_000,
    eachMessage: () => new Promise((resolve) => setTimeout(resolve, PER_RECORD_MS)),
  });
});

test.afterAll(async () => {
  await consumer?.disconnect();
  await worker?.stop();
  await admin?.disconnect();
});

test('a backlog on one partition: the card recommends the knee, shows "no gain beyond" and says why', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, OPERATOR, `/groups/${encodeURIComponent(groupId)}`);
  // ~6.5 min of backlog at any consumer count, over the 5 min target, and partition 0 alone sets it: no count
  // meets the target, so the plan recommends the knee (1) rather than one consumer per partition (3).
  await expect(page.getByTestId('capacity-summary')).toHaveText(
    /^No consumer count catches up within the 5 min target: keep 1 consumer, it catches up in \d+ min( \d+ s)?\.$/,
    { timeout: 90_000 },
  );
  // The reason, below the headline: the partition that holds the backlog.
  await expect(page.getByTestId('capacity-card').locator('.capacity-rest')).toContainText(
    'More than 1 consumer would shorten the catch-up by less than 10%: partition 0 holds 100% of the backlog ' +
      'and a partition is consumed by one consumer only',
  );
  await expect(page.getByTestId('recommended-consumers')).toHaveText('1');
  await expect(page.getByTestId('no-gain-beyond')).toHaveText('1: beyond, under 10% shorter');
  // A change of the count costs a rebalance, counted in the other counts' T: from the sampler's bound around
  // the consumer's join, or the stated default when the sampler saw none.
  await expect(page.getByTestId('capacity-rebalance-pause')).toHaveText(
    /^(No rebalance of this group on record: T counts a default 5 s pause|T counts a rebalance pause of at most [\d.]+ s) for a change of the consumer count/,
  );
  // The what-if curve agrees: 3 consumers (one per partition) are no faster than 1.
  await page.getByTestId('whatif-consumers').fill(String(PARTITIONS));
  await expect(page.getByTestId('whatif-result')).toHaveText(/^3 consumers: catches up in \d+ min( \d+ s)?/);
  await page.screenshot({ path: path.join(ARTIFACTS, 'capacity-knee.png'), fullPage: true });
});
