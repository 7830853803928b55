// A redrive worker alone in a process, for redrive-kill.it.ts, which kills it with SIGKILL at random points.
// Argument: JSON { cluster, instanceId, leaseMs, jobId }; Kafka and DATABASE_URL as the tests are configured.
// Runs rounds of jobs of that cluster value until the job is over; prints `ready` once connected, then a line
// per batch, and exits 0 when the job is done (1 when it failed).
import { createDatabase } from '../../lib/db';
import { connectRecordSource } from '../../lib/kafka/partition-records';
import { testKafka } from '../../test-support/integration';
import { loadTestConfig } from '../../test-support/test-config';
import { RedriveRunner } from './redrive-runner';
import { kafkaRedriveTransport } from './redrive-transport';

interface ChildArguments {
  cluster: string;
  instanceId: string;
  leaseMs: number;
  jobId: string;
}

async function main(): Promise<number> {
  const args = JSON.parse(process.argv[2] ?? '{}') as ChildArguments;
  const kafka = testKafka(`redrive-kill-${args.instanceId}`);
  const db = createDatabase(loadTestConfig().DATABASE_URL, 2);
  const source = await connectRecordSource(kafka);
  const runner = new RedriveRunner({
    db,
    source,
    transport: kafkaRedriveTransport(kafka),
    clock: {
      now: () => Date.now(),
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
    },
    instanceId: args.instanceId,
    leaseMs: args.leaseMs,
    cluster: args.cluster,
    onProgress: (job) => console.log(`batch: sent ${job.sent}, skipped ${job.skipped}, ${job.status}`),
  });
  console.log('ready');
  for (;;) {
    await runner.round();
    const job = await db.redriveJob.findUniqueOrThrow({ where: { id: BigInt(args.jobId) } });
    if (job.status === 'done') return 0;
    if (job.status === 'failed') {
      console.error(`redrive #${args.jobId} failed: ${job.outcome}`);
      return 1;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
