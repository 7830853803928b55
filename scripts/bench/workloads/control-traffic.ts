import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Kafka, logLevel, type Admin, type ConsumerConfig, type ProducerConfig } from 'kafkajs';
import { controlTopicNames, createConsumer, DEFAULT_STATE_INTERVAL_MS, type ControlStats } from '@warden/consumer';
import { childProcessEnv } from '../../../lib/config/program-config';
import { createKafka } from '../../../lib/kafka/client';
import { epochNowMs, type ChildSpec, type Measurement } from '../protocol';
import { summarizeLatency } from '../stats';
import { parseLogDirSizes, parseSsSegments, WireCounter } from '../wire-counter';
import { peakRssBytes, sleep } from './probe';

// (14): what the control plane of one instance costs on the wire at steady state. A WardenConsumer with
// `control` on (every control setting at its default: the state every DEFAULT_STATE_INTERVAL_MS) consumes a
// topic of the spec's partitions while this process produces a steady load to it. After the warm-up (both
// groups joined, states published) the window opens right after one state was published and closes right
// after `windowStates` more were, so it holds exactly that many state publications and their time.
//
// Counted on the client (the control plane's own Kafka client, whose sockets are counted): every byte its
// producer (states, acknowledgements) and its command reader (fetches of `<prefix>.commands`, heartbeats,
// metadata, group requests) wrote to or read from its TCP connections: the Kafka protocol bytes, both ways.
// The TCP/IP headers of those connections are counted apart from the segments `ss` reports for them (IPv4 +
// TCP with timestamps: 52 bytes a segment; a real network adds its link layer). Not counted in the control
// plane: the consumer's own client (its fetches, heartbeats and commits of the data topic) and the admin the
// core and the control plane share (counted apart: idle at steady state).
// Counted on the broker: the records the state and command topics gained in the window (log end offsets) and,
// on the bundled broker, their bytes on disk (kafka-log-dirs from the broker's jars right after the window's
// first and last state; exact when no state landed while the tool ran).

const STATE_POLL_MS = 2;
const PRODUCE_TICK_MS = 100;
const JOIN_TIMEOUT_MS = 60_000;
const BROKER_SCRIPT = path.resolve(__dirname, '..', '..', 'kafka', 'broker.sh');
/** IPv4 (20) + TCP (20) headers, and TCP's timestamps option (12) when the kernel uses it. */
const IP_TCP_HEADER_BYTES = 40;
const TCP_TIMESTAMPS_BYTES = 12;

function countedKafka(brokers: string[], clientId: string, counter: WireCounter): Kafka {
  // lib/kafka/client.ts's settings, with the counting socket factory.
  return new Kafka({
    brokers,
    clientId,
    logLevel: logLevel.ERROR,
    retry: { initialRetryTime: 100, retries: 8, maxRetryTime: 5_000 },
    connectionTimeout: 3_000,
    socketFactory: counter.socketFactory,
  });
}

/** TCP segments of each established connection (`ss -ti`), by `localPort>remotePort`; null without ss. */
async function tcpSegments(): Promise<Map<string, number> | null> {
  try {
    const { stdout } = await promisify(execFile)('ss', ['-tinH', 'state', 'established'], {
      maxBuffer: 64 * 1024 * 1024,
    });
    return parseSsSegments(stdout);
  } catch {
    return null;
  }
}

function headerBytesPerSegment(): number {
  try {
    return readFileSync('/proc/sys/net/ipv4/tcp_timestamps', 'utf8').trim() === '0'
      ? IP_TCP_HEADER_BYTES
      : IP_TCP_HEADER_BYTES + TCP_TIMESTAMPS_BYTES;
  } catch {
    return IP_TCP_HEADER_BYTES + TCP_TIMESTAMPS_BYTES;
  }
}

/** Bytes on disk of each topic's partitions together, from kafka-log-dirs on the bundled broker. */
async function logDirSizes(
  broker: NonNullable<NonNullable<ChildSpec['controlTraffic']>['logDirsBroker']>,
  topics: readonly string[],
): Promise<Map<string, number>> {
  const { stdout } = await promisify(execFile)(
    'bash',
    [
      BROKER_SCRIPT,
      'tool',
      'org.apache.kafka.tools.LogDirsCommand',
      '--bootstrap-server',
      `127.0.0.1:${broker.port}`,
      '--describe',
      '--topic-list',
      topics.join(','),
    ],
    {
      env: childProcessEnv({
        WARDEN_KAFKA_HOME: broker.home,
        WARDEN_KAFKA_PORT: String(broker.port),
        WARDEN_KAFKA_CONTROLLER_PORT: String(broker.controllerPort),
      }),
      timeout: 120_000,
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  return parseLogDirSizes(stdout, topics);
}

async function logEndOffsets(admin: Admin, topics: readonly string[]): Promise<Map<string, number>> {
  const ends = new Map<string, number>();
  for (const topic of topics)
    ends.set(
      topic,
      (await admin.fetchTopicOffsets(topic)).reduce((sum, p) => sum + Number(p.high), 0),
    );
  return ends;
}

function withTimeout<T>(what: string, promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`control traffic: waited ${ms} ms for ${what}`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export async function runControlTraffic(spec: ChildSpec, groupId: string): Promise<Measurement> {
  const settings = spec.controlTraffic;
  if (!settings || !spec.warden)
    throw new Error(`workload ${spec.workload}: the controlTraffic or warden settings are missing`);
  const partitions = spec.endOffsets.length;
  const names = controlTopicNames(settings.topicPrefix);
  const controlTopics = [names.state, names.commands];
  const controlWire = new WireCounter();
  const adminWire = new WireCounter();
  const clientId = `bench-${spec.workload}`;
  const dataKafka = createKafka({ brokers: spec.brokers, clientId });
  const controlKafka = countedKafka(spec.brokers, clientId, controlWire);
  const adminKafka = countedKafka(spec.brokers, clientId, adminWire);
  const benchKafka = createKafka({ brokers: spec.brokers, clientId: `${clientId}-load` });

  let dataJoined: () => void = () => undefined;
  const dataJoin = new Promise<void>((resolve) => (dataJoined = resolve));
  let readerJoined: () => void = () => undefined;
  const readerJoin = new Promise<void>((resolve) => (readerJoined = resolve));
  // The consumer's clients by role: its own consumer on the plain client; the control plane's reader (its group
  // starts with `<prefix>.`) and producer on the counted one; the shared admin on a counted one of its own.
  const client = {
    consumer: (config: ConsumerConfig) => {
      const isReader = config.groupId.startsWith(`${settings.topicPrefix}.`);
      const consumer = (isReader ? controlKafka : dataKafka).consumer(config);
      consumer.on(consumer.events.GROUP_JOIN, () => (isReader ? readerJoined() : dataJoined()));
      if (isReader) consumer.on(consumer.events.REQUEST, (event) => controlWire.request(event.payload.apiName));
      return consumer;
    },
    producer: (config?: ProducerConfig) => {
      const producer = controlKafka.producer(config);
      producer.on(producer.events.REQUEST, (event) => controlWire.request(event.payload.apiName));
      return producer;
    },
    admin: () => {
      const admin = adminKafka.admin();
      admin.on(admin.events.REQUEST, (event) => adminWire.request(event.payload.apiName));
      return admin;
    },
  };
  const OPEN_BRACE = 0x7b;
  const consumer = createConsumer<null>({
    kafka: client,
    groupId,
    topics: [spec.topic],
    fromBeginning: true,
    ordering: spec.warden.ordering,
    commitIntervalMs: spec.warden.commitIntervalMs,
    admit: (record) =>
      record.value !== null && record.value[0] === OPEN_BRACE
        ? { ok: true, value: null, orderingKey: null }
        : { ok: false, reason: 'not an event', errorClass: 'malformed' },
    handle: async () => undefined,
    quarantinePolicy: 'pause',
    control: { topicPrefix: settings.topicPrefix, clientId },
  });
  const control = consumer.control;
  if (!control) throw new Error('control traffic: the consumer has no control plane');
  const stats = (): ControlStats => control.stats();

  const admin = benchKafka.admin();
  const producer = benchKafka.producer({ allowAutoTopicCreation: false });
  let producing = true;
  let produced = 0;
  let loadFailure: Error | null = null;
  let load: Promise<void> = Promise.resolve();
  try {
    await admin.connect();
    await producer.connect();
    const baselineRssBytes = process.memoryUsage.rss();
    await consumer.start();
    // A steady load: every PRODUCE_TICK_MS a request of producePerSec / 10 records over every partition.
    const perTick = Math.max(1, Math.round((settings.producePerSec * PRODUCE_TICK_MS) / 1000));
    const loadStarted = performance.now();
    load = (async () => {
      for (let tick = 1; producing; tick++) {
        const messages = Array.from({ length: perTick }, () => {
          const n = produced++;
          return { partition: n % partitions, value: JSON.stringify({ n, pad: 'x'.repeat(160) }) };
        });
        await producer.send({ topic: spec.topic, acks: -1, messages });
        const due = loadStarted + tick * PRODUCE_TICK_MS;
        if (due > performance.now()) await sleep(due - performance.now());
      }
    })().catch((error: Error) => {
      loadFailure = error;
    });

    await withTimeout('the consumer to join its group', dataJoin, JOIN_TIMEOUT_MS);
    await withTimeout('the command reader to join its group', readerJoin, JOIN_TIMEOUT_MS);
    await sleep(settings.warmupMs);
    const intervalMs = DEFAULT_STATE_INTERVAL_MS;
    /** Resolves right after the next state was published (its produce request answered). */
    const nextState = async () => {
      const seen = stats().statesPublished;
      const deadline = performance.now() + 3 * intervalMs + 10_000;
      while (stats().statesPublished === seen) {
        if (loadFailure) throw loadFailure;
        if (performance.now() > deadline)
          throw new Error(`control traffic: no state was published within ${3 * intervalMs + 10_000} ms`);
        await sleep(STATE_POLL_MS);
      }
    };
    const headerBytes = headerBytesPerSegment();
    const mark = async () => {
      const at = epochNowMs();
      const wire = controlWire.snapshot();
      const adminSnapshot = adminWire.snapshot();
      const counters = stats();
      const [segments, ends] = await Promise.all([tcpSegments(), logEndOffsets(admin, controlTopics)]);
      return { at, wire, adminSnapshot, counters, segments, ends };
    };
    /** kafka-log-dirs right after a mark; exact when the topics' log end offsets did not move meanwhile. */
    let logDirsProblem: string | null = settings.logDirsBroker === null ? 'not the bundled broker' : null;
    const sizesAfter = async (ends: Map<string, number>) => {
      if (settings.logDirsBroker === null) return null;
      try {
        const sizes = await logDirSizes(settings.logDirsBroker, controlTopics);
        const endsAfter = await logEndOffsets(admin, controlTopics);
        const exact = controlTopics.every((topic) => endsAfter.get(topic) === ends.get(topic));
        return { sizes, exact };
      } catch (error) {
        logDirsProblem = (error as Error).message.split('\n')[0] ?? 'kafka-log-dirs failed';
        return null;
      }
    };

    await nextState();
    const start = await mark();
    const startSizes = await sizesAfter(start.ends);
    for (let i = 0; i < settings.windowStates; i++) await nextState();
    const end = await mark();
    const endSizes = await sizesAfter(end.ends);
    producing = false;
    await load;
    if (loadFailure) throw loadFailure;

    const windowMs = end.at - start.at;
    const perSec = (bytes: number) => (bytes * 1000) / windowMs;
    const bytesOut = end.wire.bytesOut - start.wire.bytesOut;
    const bytesIn = end.wire.bytesIn - start.wire.bytesIn;
    const requests = [...end.wire.requests].map(
      ([api, count]) => [api, count - (start.wire.requests.get(api) ?? 0)] as const,
    );
    const requestsText = requests
      .filter(([, count]) => count > 0)
      .sort((a, b) => b[1] - a[1])
      .map(([api, count]) => `${api} ${count}`)
      .join(', ');
    // Segments of the connections open at both marks (a connection opened or closed inside the window is
    // missing from them; how many did is reported).
    let segments: number | null = null;
    if (start.segments && end.segments) {
      segments = 0;
      for (const connection of end.wire.connections) {
        if (!start.wire.connections.has(connection)) continue;
        segments += (end.segments.get(connection) ?? 0) - (start.segments.get(connection) ?? 0);
      }
    }
    const adminBytes =
      end.adminSnapshot.bytesOut +
      end.adminSnapshot.bytesIn -
      start.adminSnapshot.bytesOut -
      start.adminSnapshot.bytesIn;
    const states = end.counters.statesPublished - start.counters.statesPublished;
    const stateRecords = end.ends.get(names.state)! - start.ends.get(names.state)!;
    const commandRecords = end.ends.get(names.commands)! - start.ends.get(names.commands)!;
    const stateDiskBytes =
      startSizes && endSizes ? endSizes.sizes.get(names.state)! - startSizes.sizes.get(names.state)! : null;
    const commandDiskBytes =
      startSizes && endSizes ? endSizes.sizes.get(names.commands)! - startSizes.sizes.get(names.commands)! : null;
    const peak = peakRssBytes();
    const connectionsOpened = [...end.wire.connections].filter((c) => !start.wire.connections.has(c)).length;
    return {
      records: states,
      startEpochMs: start.at,
      endEpochMs: end.at,
      latency: summarizeLatency([]),
      peakRssBytes: peak,
      baselineRssBytes,
      partitionDoneMs: [],
      details: {
        partitions,
        topicNameChars: spec.topic.length,
        producedPerSec: Math.round((produced * 1000) / (performance.now() - loadStarted)),
        warmupMs: settings.warmupMs,
        windowMs: Math.round(windowMs),
        stateIntervalMs: intervalMs,
        statesPublished: states,
        stateValueBytes: end.counters.publishedBytes - start.counters.publishedBytes,
        acksPublished: end.counters.acksPublished - start.counters.acksPublished,
        commandMessagesRead: end.counters.commandMessagesRead - start.counters.commandMessagesRead,
        controlBytesOut: bytesOut,
        controlBytesIn: bytesIn,
        controlBytesPerSec: Math.round(perSec(bytesOut + bytesIn) * 10) / 10,
        requests: requestsText,
        requestCount: requests.reduce((sum, [, count]) => sum + count, 0),
        connectionsOpenedOrClosed: connectionsOpened + (end.wire.closed - start.wire.closed),
        tcpSegments: segments,
        headerBytesPerSegment: headerBytes,
        headerBytesPerSec: segments === null ? null : Math.round(perSec(segments * headerBytes) * 10) / 10,
        adminBytesPerSec: Math.round(perSec(adminBytes) * 10) / 10,
        brokerStateRecords: stateRecords,
        brokerCommandRecords: commandRecords,
        brokerStateDiskBytes: stateDiskBytes,
        brokerCommandDiskBytes: commandDiskBytes,
        brokerDiskBytesPerSec:
          stateDiskBytes === null || commandDiskBytes === null
            ? null
            : Math.round(perSec(stateDiskBytes + commandDiskBytes) * 10) / 10,
        brokerSizesExact: startSizes !== null && endSizes !== null && startSizes.exact && endSizes.exact,
        brokerSizesProblem: logDirsProblem,
      },
    };
  } finally {
    producing = false;
    await load;
    await consumer.stop(5_000);
    await producer.disconnect().catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
  }
}
