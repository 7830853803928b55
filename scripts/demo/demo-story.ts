// The demo's story: what an operator sees in the first minutes of `npm run demo`, one act at a time.
// Pure (time in, plan out) so the timeline is unit-tested and the traffic generator and the demo's process
// control read the same acts.

import { SHORT_RETENTION } from './demo-archiver';

export type DemoScenario = 'story' | 'steady';

export interface DemoStorySettings {
  scenario: DemoScenario;
  /** Background traffic across many keys, all the time. */
  steadyRatePerSec: number;
  /** Total rate during the slow period (more than the workers can take: a backlog builds, then drains). */
  surgeRatePerSec: number;
  /** One key's extra rate while the hot key is on: its lane cannot keep up, so its partition lags alone. */
  hotKeyRatePerSec: number;
}

export interface DemoAct {
  name: string;
  fromSec: number;
  toSec: number;
  /** Shown by the demo when the act starts: what to look at. */
  cue: string;
}

/** Orders per second to the orders service (scripts/demo/demo-orders-service.ts), in either scenario. */
export const ORDERS_RATE_PER_SEC = 2;

/** Acts by start time; an act with toSec === fromSec happens once at that moment. */
export const STORY_ACTS: readonly DemoAct[] = [
  { name: 'steady', fromSec: 0, toSec: Infinity, cue: 'steady traffic on every partition: lag near zero (Overview)' },
  {
    name: 'orders-service',
    fromSec: 0,
    toSec: Infinity,
    cue: "beside Warden's pipeline, the orders service (examples/orders-service, a team's own service that embeds @warden/consumer) takes a few orders a second: group orders-service, topic orders; it reports over Kafka alone, so its group page lists its instance on the Instances card with the commit prefix of each partition",
  },
  {
    name: 'plain-consumer',
    fromSec: 10,
    toSec: 60,
    cue: 'a consumer Warden did not write (plain kafkajs, its own group) reads the input topic; at 60 s it stops, and its group turns ERR: STOP with its reason within one sampler round (Overview)',
  },
  {
    name: 'short-retention',
    fromSec: 15,
    toSec: Infinity,
    cue: "an audit topic whose records Kafka keeps 45 s, read by an archiver a quarter as fast as they arrive: the archiver's group page counts down in its Retention column to when retention starts deleting records it has not read, and retention-risk fires",
  },
  {
    name: 'hot-key',
    fromSec: 20,
    toSec: 140,
    cue: 'one key gets hot: its partition lags alone, more consumers would not help (group page: advice on partition 0)',
  },
  {
    name: 'archiver-stalls',
    fromSec: 40,
    toSec: 150,
    cue: "the archiver's downstream fails and it stops reading: about half a minute later retention deletes records it never read; the sampler records them (count and offsets) and its group turns LOST (Overview), records-lost fires, and the loss grows while it stays stopped; acknowledge it on its group page",
  },
  {
    name: 'poison',
    fromSec: 45,
    toSec: 45,
    cue: 'a poison record: its partition is quarantined, the others keep flowing (Quarantine page: resume, skip or seek it)',
  },
  {
    name: 'malformed-order',
    fromSec: 50,
    toSec: 50,
    cue: "the orders service gets a malformed order: it holds that partition of orders, not Warden's worker, and the Quarantine page shows its card next to the poison record's, naming the service's instance (orders-service@host/pid) that holds it; Skip it there and the service applies it",
  },
  {
    name: 'surge',
    fromSec: 75,
    toSec: 120,
    cue: 'a slow period: arrivals exceed what the workers take, a backlog builds (group page: capacity card says scale to N, catch up in T)',
  },
  {
    name: 'second-worker',
    fromSec: 90,
    toSec: 150,
    cue: 'a second worker joins, later leaves: two rebalances (Rebalances page)',
  },
  {
    name: 'archiver-recovers',
    fromSec: 150,
    toSec: 150,
    cue: "the archiver's downstream is back and it reads again, at full speed: its committed offset is gone, so kafkajs resets it to the earliest record retention kept, the loss episode ends and it catches up (LOST stays until someone acknowledges the loss)",
  },
];

export interface DemoPlan {
  /** Records per second across the background keys. */
  ratePerSec: number;
  /** Records per second on the hot key (0 when it is off). */
  hotKeyRatePerSec: number;
  /** Whether the second worker instance should be running. */
  secondWorker: boolean;
  /** Whether the plain kafkajs consumer (not Warden's core) should be running; once stopped it stays stopped. */
  plainConsumer: boolean;
  /** Orders per second to the orders service. */
  ordersRatePerSec: number;
  /** Records per second to the short-retention audit topic (scripts/demo/demo-archiver.ts); 0 before its act. */
  auditRatePerSec: number;
  /** Whether the slow archiver of the audit topic should be running. */
  archiver: boolean;
  /** Whether it has stopped reading (its downstream failed), still a member of its group. */
  archiverStalled: boolean;
}

const active = (name: string, elapsedSec: number) => {
  const act = STORY_ACTS.find((a) => a.name === name)!;
  return elapsedSec >= act.fromSec && elapsedSec < act.toSec;
};

export function planAt(elapsedSec: number, settings: DemoStorySettings): DemoPlan {
  if (settings.scenario === 'steady')
    return {
      ratePerSec: settings.steadyRatePerSec,
      hotKeyRatePerSec: 0,
      secondWorker: false,
      plainConsumer: false,
      ordersRatePerSec: ORDERS_RATE_PER_SEC,
      auditRatePerSec: 0,
      archiver: false,
      archiverStalled: false,
    };
  return {
    ratePerSec: active('surge', elapsedSec)
      ? Math.max(settings.surgeRatePerSec, settings.steadyRatePerSec)
      : settings.steadyRatePerSec,
    hotKeyRatePerSec: active('hot-key', elapsedSec) ? settings.hotKeyRatePerSec : 0,
    secondWorker: active('second-worker', elapsedSec),
    plainConsumer: active('plain-consumer', elapsedSec),
    ordersRatePerSec: ORDERS_RATE_PER_SEC,
    auditRatePerSec: active('short-retention', elapsedSec) ? SHORT_RETENTION.ratePerSec : 0,
    archiver: active('short-retention', elapsedSec),
    archiverStalled: active('archiver-stalls', elapsedSec),
  };
}

/** The plain consumer's group: the demo's group id with a suffix, so a filter on the demo's group finds both. */
export function plainConsumerGroupId(demoGroupId: string): string {
  return `${demoGroupId}-plain-kafkajs`;
}

/** The acts of the orders service: left out when the demo runs without it (brokers with TLS or SASL). */
export const ORDERS_SERVICE_ACTS: ReadonlySet<string> = new Set(['orders-service', 'malformed-order']);

/** What the steady scenario plays: background traffic, and the orders service's few orders. */
const STEADY_ACTS = new Set(['steady', 'orders-service']);

/** Acts that begin in (previousSec, elapsedSec]; the first call (previousSec -1) includes those at 0. */
export function actsStartingBetween(previousSec: number, elapsedSec: number, scenario: DemoScenario): DemoAct[] {
  const acts = scenario === 'story' ? STORY_ACTS : STORY_ACTS.filter((a) => STEADY_ACTS.has(a.name));
  return acts.filter((a) => a.fromSec > previousSec && a.fromSec <= elapsedSec);
}
