import { createDatabase } from '../../../lib/db';
import { DEFAULT_CLUSTER } from '../../../lib/schemas/values';
import { LagSampler, type RoundResult } from '../../../worker/sampler/lag-sampler';
import { PgShardLocks } from '../../../worker/sampler/pg-shard-locks';
import { ShardLeases } from '../../../worker/sampler/shard-leases';
import { epochNowMs, type ChildSpec, type Measurement } from '../protocol';
import { summarizeLatency } from '../stats';
import { terminateBackend } from '../../../test-support/database';
import { peakRssBytes, sleep } from './probe';
import { percentileMs, sortedBy } from './round-timings';
import { emptySampleTables, generatedFleet } from './sampler-scale';

// (10h) Sharded sampling over a generated cluster state (generated-cluster.ts, the fleet of (10s): at a tenth
// of it the rounds were so short that each round's fixed cost hid the split) with real Postgres for the
// writes and for the shard locks, SAMPLER_SHARDS = 8.
// 1. One instance holds all eight shards: its rounds (compute + write, the generated read left out as in
//    (10s)) are the baseline.
// 2. A second instance joins; the first gives four shards back and the second takes them (the real
//    ShardLeases protocol over Postgres advisory locks). Each then runs its rounds. The two run one after the
//    other in this one process, so each round is timed without the other competing for the CPU, as on two
//    hosts (on this shared 2-core machine two concurrent processes would measure the machine, not the split).
// 3. The first instance dies (its lock session is terminated, as when its process is killed) while the
//    second runs its real loop at the interval: the failover is the wall time from the kill until the second
//    holds every shard, and until a round of the second stored every group. The second takes the shards at
//    its first tick after the kill, which comes one interval after its previous tick began, or when its round
//    in progress ends if that round outlasts the interval (on a loaded machine); the rounds it finished
//    after the kill without every group are counted (at most the one in progress may be).
// The first round after every change of shares is left out of the round times (it stores every group it
// just gained). In steps 1 and 2 the samplers run on the interval's clock, as (10s) does: round n is at
// n x intervalMs (both instances' round n at the same time, as two hosts would), so idle skipping and exact
// time-lag reads fall on the same rounds alone and split however long a round takes here; six measured rounds
// cover one SAMPLE_IDLE_STORE_MS period. Step 3 runs on real time from there on.

const SHARDS = 8;

export async function runSamplerShards(spec: ChildSpec): Promise<Measurement> {
  const scale = spec.samplerScale;
  if (!scale) throw new Error(`workload ${spec.workload}: the sampler-scale settings are missing`);
  const settings = { ...scale, groups: Math.max(SHARDS, scale.groups) };
  const db = createDatabase(settings.databaseUrl, 3);
  const lockName = `warden:lag-sampler:bench-${spec.workload}-${process.pid}`;
  const lastRound = new Map<string, RoundResult>();
  let roundAtMs = Date.now();
  let roundStartedAt = performance.now();
  const clock = () => roundAtMs + (performance.now() - roundStartedAt);
  /** The interval's clock at round `n` (steps 1 and 2); step 3 lets it run on from the last round. */
  const atRound = (n: number) => {
    roundAtMs = firstRoundMs + n * settings.intervalMs;
    roundStartedAt = performance.now();
  };
  const firstRoundMs = roundAtMs;
  const instance = (name: string) => {
    const locks = new PgShardLocks({ connectionString: settings.databaseUrl, lockName });
    const leases = new ShardLeases({ session: locks, shardCount: SHARDS });
    const sampler = new LagSampler({
      cluster: DEFAULT_CLUSTER,
      reader: generatedFleet(settings, clock),
      db,
      lock: leases,
      instanceId: `bench-${spec.workload}-${name}`,
      intervalMs: settings.intervalMs,
      idleStoreMs: settings.idleStoreMs,
      maxBackoffMs: 60_000,
      state: settings.state,
      retention: { rawDays: 7, rollupDays: 90 },
      runsMaintenance: false,
      now: clock,
      onRound: (outcome) => {
        if (outcome.result) lastRound.set(name, outcome.result);
      },
    });
    return { name, locks, leases, sampler };
  };
  type Instance = ReturnType<typeof instance>;
  /** One loop step of `who`; its round when it sampled. */
  const tick = async (who: Instance): Promise<RoundResult | null> => {
    lastRound.delete(who.name);
    await who.sampler.tick();
    return lastRound.get(who.name) ?? null;
  };
  const samplerMs = (r: RoundResult) => r.durationMs - r.clusterReadMs;
  const timed = async (who: Instance): Promise<RoundResult> => {
    const result = await tick(who);
    if (!result?.written) throw new Error(`${who.name}: a round did not reach Postgres`);
    return result;
  };
  const groupsOf = (r: RoundResult) => new Set(r.rows.map((row) => row.groupId)).size;

  const a = instance('a');
  const b = instance('b');
  try {
    await emptySampleTables(db, settings.databaseUrl);
    const baselineRssBytes = process.memoryUsage.rss();
    const startEpochMs = epochNowMs();
    const rounds = 7;
    let n = 0;

    // 1. Alone: every shard.
    const alone: RoundResult[] = [];
    for (let i = 0; i < rounds; i++) {
      atRound(n++);
      alone.push(await timed(a));
    }
    if (a.leases.shards.length !== SHARDS) throw new Error(`a alone holds ${a.leases.shards.length} shards`);

    // 2. b joins: a finds four shards above its share, samples them once more, gives them back; b takes them.
    atRound(n);
    if ((await tick(b)) !== null) throw new Error('b sampled while a held every shard');
    await tick(a);
    atRound(++n);
    await tick(a);
    await tick(b);
    if (a.leases.shards.length !== SHARDS / 2 || b.leases.shards.length !== SHARDS / 2)
      throw new Error(`shares after the join: a ${a.leases.shards.length}, b ${b.leases.shards.length}`);
    const splitA: RoundResult[] = [];
    const splitB: RoundResult[] = [];
    for (let i = 0; i < rounds; i++) {
      atRound(++n);
      splitA.push(await timed(a));
      atRound(n);
      splitB.push(await timed(b));
    }
    const groupsA = groupsOf(splitA[splitA.length - 1]!);
    const groupsB = groupsOf(splitB[splitB.length - 1]!);

    // 3. a dies while b runs its loop at the interval.
    lastRound.delete('b');
    b.sampler.start();
    await sleep(Math.round(settings.intervalMs * 0.37));
    // A round b finished before the kill is not one "after" it.
    let seen = lastRound.get('b');
    const killedAt = performance.now();
    await terminateBackend(settings.databaseUrl, a.locks.sessionId!);
    let failoverMs = Number.NaN;
    let recoveredMs = Number.NaN;
    let partialRoundsAfterKill = 0;
    const deadline = killedAt + 10 * settings.intervalMs + 120_000;
    while (performance.now() < deadline && Number.isNaN(recoveredMs)) {
      if (Number.isNaN(failoverMs) && b.leases.shards.length === SHARDS) failoverMs = performance.now() - killedAt;
      const round = lastRound.get('b');
      if (round && round !== seen && groupsOf(round) < settings.groups) partialRoundsAfterKill += 1;
      seen = round;
      if (!Number.isNaN(failoverMs) && round && groupsOf(round) === settings.groups)
        recoveredMs = performance.now() - killedAt;
      await sleep(10);
    }
    if (Number.isNaN(recoveredMs)) throw new Error('b never sampled every group after a died');
    const endEpochMs = epochNowMs();

    const measuredAlone = alone.slice(1);
    const p50 = (list: RoundResult[]) => percentileMs(sortedBy(list, samplerMs), 50);
    const aloneP50Ms = p50(measuredAlone);
    const splitAP50Ms = p50(splitA.slice(1));
    const splitBP50Ms = p50(splitB.slice(1));
    return {
      records: settings.groups * settings.partitions,
      startEpochMs,
      endEpochMs,
      latency: summarizeLatency(sortedBy([...splitA.slice(1), ...splitB.slice(1)], samplerMs)),
      peakRssBytes: peakRssBytes(),
      baselineRssBytes,
      partitionDoneMs: [],
      details: {
        groups: settings.groups,
        partitions: settings.partitions,
        shards: SHARDS,
        measuredRounds: measuredAlone.length,
        aloneP50Ms,
        splitAP50Ms,
        splitBP50Ms,
        splitAGroups: groupsA,
        splitBGroups: groupsB,
        splitAShareOfAlone: Math.round((splitAP50Ms / aloneP50Ms) * 100) / 100,
        splitBShareOfAlone: Math.round((splitBP50Ms / aloneP50Ms) * 100) / 100,
        failoverMs: Math.round(failoverMs),
        partialRoundsAfterKill,
        recoveredMs: Math.round(recoveredMs),
        intervalMs: settings.intervalMs,
      },
    };
  } finally {
    await b.sampler.stop().catch(() => undefined);
    await a.sampler.stop().catch(() => undefined);
    await db.$disconnect();
  }
}
