// Entry of one workload's child process (forked by runner.ts): reads the spec from argv, runs the
// workload, answers over IPC and exits. Runs nothing when imported.
import { randomUUID } from 'node:crypto';
import { parseCommandLine, UsageError } from '../lib/command-line';
import type { ChildMessage, ChildSpec, Measurement } from './protocol';

const USAGE =
  'usage: tsx scripts/bench/child.ts <spec as JSON>  (forked by the bench runner, which reads its answer over IPC)';

function send(message: ChildMessage): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!process.send)
      return reject(new Error('scripts/bench/child.ts must be started by the bench runner (no IPC channel)'));
    process.send(message, (error: Error | null) => (error ? reject(error) : resolve()));
  });
}

/** Loads only the workload's own module, so no workload's peak RSS includes another's libraries (Prisma). */
async function runWorkload(spec: ChildSpec): Promise<Measurement> {
  // A fresh group per run: every run reads its topic from the beginning.
  const groupId = `warden-bench-${spec.workload}-${randomUUID().slice(0, 8)}`;
  switch (spec.kind) {
    case 'raw-kafkajs':
      return (await import('./workloads/raw-kafkajs')).runRawKafkajs(spec, groupId);
    case 'warden':
      return (await import('./workloads/warden')).runWarden(spec, groupId);
    case 'keyed-retries':
      return (await import('./workloads/keyed-retries')).runKeyedRetries(spec, groupId, () => send({ type: 'ready' }));
    case 'memory':
      return (await import('./workloads/memory')).runMemory(spec, groupId);
    case 'pipeline':
      return (await import('./workloads/pipeline')).runPipeline(spec, groupId);
    case 'raw-pipeline':
      return (await import('./workloads/raw-pipeline')).runRawPipeline(spec, groupId);
    case 'sampler-round':
      return (await import('./workloads/sampler-round')).runSamplerRound(spec);
    case 'sampler-scale':
      return (await import('./workloads/sampler-scale')).runSamplerScale(spec);
    case 'sampler-shards':
      return (await import('./workloads/sampler-shards')).runSamplerShards(spec);
    case 'api-reads':
      return (await import('./workloads/api-reads')).runApiReads(spec);
    case 'overview-http':
      return (await import('./workloads/overview-http')).runOverviewHttp(spec);
    case 'action-round-trip':
      return (await import('./workloads/action-round-trip')).runActionRoundTrip(spec, groupId);
    case 'redrive':
      return (await import('./workloads/redrive')).runRedrive(spec, groupId);
    case 'service-action-round-trip':
      return (await import('./workloads/service-action-round-trip')).runServiceActionRoundTrip(spec, groupId);
    case 'control-traffic':
      return (await import('./workloads/control-traffic')).runControlTraffic(spec, groupId);
    case 'control-throughput':
      throw new Error(
        `workload ${spec.workload}: control-throughput runs 'warden' children, off and on (workload-runs.ts), not one of its own`,
      );
    case 'parallel-consumer':
      throw new Error(
        `workload ${spec.workload}: Parallel Consumer runs in its own JVM (parallel-consumer-runs.ts), not in a Node child`,
      );
  }
}

async function main(): Promise<void> {
  const { positionals, values } = parseCommandLine(process.argv.slice(2), {}, { allowPositionals: true });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (positionals.length !== 1)
    throw new UsageError(`expected one argument, the spec as JSON, got ${positionals.length}`);
  const spec = JSON.parse(positionals[0]!) as ChildSpec | null;
  if (!spec) throw new UsageError('the spec is null');
  const timeout = setTimeout(() => {
    void send({
      type: 'error',
      message: `workload ${spec.workload} did not finish within ${spec.timeoutMs} ms`,
    }).finally(() => process.exit(1));
  }, spec.timeoutMs);
  const measurement = await runWorkload(spec);
  clearTimeout(timeout);
  await send({ type: 'result', measurement });
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    async (error: Error) => {
      if (error instanceof UsageError) {
        console.error(`bench child: ${error.message}\n${USAGE}`);
        process.exit(2);
      }
      await send({ type: 'error', message: error.stack ?? error.message }).catch(() => undefined);
      process.exit(1);
    },
  );
}
