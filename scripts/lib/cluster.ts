import { spawn, type ChildProcessByStdio } from 'node:child_process';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Admin } from 'kafkajs';
import { childProcessEnv } from '../../lib/config/program-config';
import { eventually } from '../../test-support/eventually';
import { run } from './processes';

const CLUSTER_SCRIPT = path.join(__dirname, '..', 'kafka', 'cluster.sh');

/** Nodes are numbered 1..3; node n is also the broker id and the controller voter id. */
export const CLUSTER_NODES = [1, 2, 3] as const;
export type ClusterNode = (typeof CLUSTER_NODES)[number];

/**
 * The cluster's ports from a port base: brokers base+600..602, controllers base+610..612, the listeners
 * proxies forward to base+620..622, and the proxies' own ports (which those listeners advertise) base+630..632.
 */
export function clusterPortsFromBase(base: number): Omit<LocalClusterOptions, 'home'> {
  return {
    firstBrokerPort: base + 600,
    firstControllerPort: base + 610,
    firstProxiedPort: base + 620,
    firstProxyPort: base + 630,
  };
}

export interface LocalClusterOptions {
  home: string;
  firstBrokerPort: number;
  firstControllerPort: number;
  firstProxiedPort: number;
  firstProxyPort: number;
}

/**
 * The three-node KRaft cluster of scripts/kafka/cluster.sh (RF 3, min.insync.replicas 2, unclean leader
 * election off), with the faults a failover test needs: kill -9, SIGTERM and restart of one node, and
 * lookups of who leads a partition, the controller quorum and a group.
 */
export class LocalCluster {
  constructor(private readonly options: LocalClusterOptions) {}

  get brokers(): string[] {
    return CLUSTER_NODES.map((n) => this.address(n));
  }

  address(node: ClusterNode): string {
    return `127.0.0.1:${this.options.firstBrokerPort + node - 1}`;
  }

  /**
   * Where a proxy in front of `node` forwards to (`target`), and the port it must listen on (`listen`):
   * clients that bootstrap at the proxies are told every node's proxy address, so all their traffic passes
   * the proxies while the nodes replicate among themselves directly.
   */
  proxyRoute(node: ClusterNode): { target: { host: string; port: number }; listen: number } {
    return {
      target: { host: '127.0.0.1', port: this.options.firstProxiedPort + node - 1 },
      listen: this.options.firstProxyPort + node - 1,
    };
  }

  /** Starts every node (idempotent: running ones are reused); `fresh` wipes every node's data first. */
  start(fresh = false): Promise<void> {
    return this.script(['start'], fresh);
  }

  stop(): Promise<void> {
    return this.script(['stop']);
  }

  /** Whether every node runs and accepts connections. */
  async running(): Promise<boolean> {
    return (await run('bash', [CLUSTER_SCRIPT, 'status'], { env: this.env(false), stdio: 'ignore' })) === 0;
  }

  /** Starts one node from its data dir and waits until it accepts connections. */
  startNode(node: ClusterNode): Promise<void> {
    return this.script(['start-node', String(node)]);
  }

  /** SIGTERM: a controlled shutdown (leadership moves away first); SIGKILL after 30 s. */
  stopNode(node: ClusterNode): Promise<void> {
    return this.script(['stop-node', String(node)]);
  }

  /** kill -9: a crash; the node's data stays for its restart. */
  killNode(node: ClusterNode): Promise<void> {
    return this.script(['kill-node', String(node)]);
  }

  /** The node leading `partition` of `topic` now, from a fresh metadata request; null while it has none. */
  async leaderOf(admin: Admin, topic: string, partition: number): Promise<ClusterNode | null> {
    const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
    const leader = topics[0]?.partitions.find((p) => p.partitionId === partition)?.leader;
    return leader !== undefined && isClusterNode(leader) ? leader : null;
  }

  /** Waits until `partition` of `topic` has a leader other than `not` (a failover finished). */
  async waitForLeader(admin: Admin, topic: string, partition: number, not?: ClusterNode): Promise<ClusterNode> {
    return eventually(
      `a leader of ${topic}[${partition}]${not ? ` other than node ${not}` : ''}`,
      async () => {
        const leader = await this.leaderOf(admin, topic, partition).catch(() => null);
        return leader !== null && leader !== not ? leader : undefined;
      },
      60_000,
    );
  }

  /**
   * The node coordinating every group: the leader of the only __consumer_offsets partition (cluster.sh
   * makes one), since a group's coordinator is the leader of the offsets partition its id hashes to.
   */
  groupCoordinator(admin: Admin): Promise<ClusterNode> {
    return this.waitForLeader(admin, '__consumer_offsets', 0);
  }

  /**
   * The active controller (the KRaft quorum leader) as the broker's own kafka-metadata-quorum tool reports
   * it. Metadata responses cannot tell: in KRaft their controller id names a random live broker.
   */
  async activeController(): Promise<ClusterNode> {
    const output = await this.toolOutput([
      'org.apache.kafka.tools.MetadataQuorumCommand',
      '--bootstrap-server',
      this.brokers.join(','),
      'describe',
      '--status',
    ]);
    const leader = /^LeaderId:\s+(\d+)/m.exec(output)?.[1];
    const node = Number(leader);
    if (!isClusterNode(node)) throw new Error(`kafka-metadata-quorum named no leader: ${output.slice(0, 300)}`);
    return node;
  }

  /** Starts a class from the broker's jars (cluster.sh tool: its own JVM, heap ≤ 512 MiB) in its own process group. */
  spawnTool(args: string[]): ChildProcessByStdio<null, Readable, Readable> {
    return spawn('bash', [CLUSTER_SCRIPT, 'tool', ...args], {
      env: this.env(false),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
  }

  /** Runs a class from the broker's jars (cluster.sh tool) and resolves with its stdout; rejects on a non-zero exit. */
  toolOutput(args: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = this.spawnTool(args);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4_096)));
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 ? resolve(stdout) : reject(new Error(`${args[0]} exited ${code}: ${stderr.trim().slice(-500)}`)),
      );
    });
  }

  private env(fresh: boolean) {
    return childProcessEnv({
      WARDEN_KAFKA_CLUSTER_HOME: this.options.home,
      WARDEN_KAFKA_CLUSTER_PORT: String(this.options.firstBrokerPort),
      WARDEN_KAFKA_CLUSTER_CONTROLLER_PORT: String(this.options.firstControllerPort),
      WARDEN_KAFKA_CLUSTER_PROXIED_PORT: String(this.options.firstProxiedPort),
      WARDEN_KAFKA_CLUSTER_PROXY_PORT: String(this.options.firstProxyPort),
      WARDEN_KAFKA_FRESH: fresh ? '1' : '0',
    });
  }

  private async script(args: string[], fresh = false): Promise<void> {
    const code = await run('bash', [CLUSTER_SCRIPT, ...args], { env: this.env(fresh) });
    if (code !== 0) throw new Error(`scripts/kafka/cluster.sh ${args.join(' ')} failed (exit ${code})`);
  }
}

function isClusterNode(id: number): id is ClusterNode {
  return (CLUSTER_NODES as readonly number[]).includes(id);
}
