import net from 'node:net';
import tls from 'node:tls';
import type { ISocketFactory } from 'kafkajs';

// What (14) counts on the wire: the bytes of every TCP connection a kafkajs client opens (through its
// socketFactory) and the requests it reports, plus the parsers of what `ss -ti` and kafka-log-dirs print.

/** Bytes and requests of the clients made through one counter, since it was created. */
export interface WireSnapshot {
  bytesOut: number;
  bytesIn: number;
  /** Requests by kafkajs API name (Produce, Fetch, Heartbeat, Metadata…). */
  requests: Map<string, number>;
  /** `localPort>remotePort` of the connections open now. */
  connections: Set<string>;
  /** Connections closed so far (their bytes are in the totals). */
  closed: number;
}

/**
 * Counts the bytes of every socket kafkajs opens through `socketFactory` (TCP payload: the Kafka protocol
 * bytes, both directions; TLS records when TLS is on) and the requests reported to `request`.
 */
export class WireCounter {
  private readonly open = new Set<net.Socket>();
  private closedOut = 0;
  private closedIn = 0;
  private closedCount = 0;
  private readonly requests = new Map<string, number>();

  readonly socketFactory: ISocketFactory = ({ host, port, ssl, onConnect }) => {
    // What kafkajs's own factory does; the socket is kept for counting until it closes.
    const socket = ssl
      ? tls.connect({ host, port, ...(net.isIP(host) ? {} : { servername: host }), ...ssl }, onConnect)
      : net.connect({ host, port }, onConnect);
    socket.setKeepAlive(true, 60_000);
    this.open.add(socket);
    socket.once('close', () => {
      this.open.delete(socket);
      this.closedOut += socket.bytesWritten;
      this.closedIn += socket.bytesRead;
      this.closedCount++;
    });
    return socket;
  };

  request(apiName: string): void {
    this.requests.set(apiName, (this.requests.get(apiName) ?? 0) + 1);
  }

  snapshot(): WireSnapshot {
    const sockets = [...this.open];
    return {
      bytesOut: this.closedOut + sockets.reduce((sum, s) => sum + s.bytesWritten, 0),
      bytesIn: this.closedIn + sockets.reduce((sum, s) => sum + s.bytesRead, 0),
      requests: new Map(this.requests),
      connections: new Set(
        sockets.filter((s) => s.localPort !== undefined).map((s) => `${s.localPort}>${s.remotePort}`),
      ),
      closed: this.closedCount,
    };
  }
}

/**
 * Segments in plus out per connection, by `localPort>remotePort`, from `ss -tinH state established`: a line
 * `Recv-Q Send-Q Local:Port Peer:Port` (no state column under a state filter) followed by indented lines
 * with `segs_out:N` and `segs_in:M`. A connection without both counters is left out.
 */
export function parseSsSegments(stdout: string): Map<string, number> {
  const segments = new Map<string, number>();
  const port = (address: string | undefined) => address?.slice(address.lastIndexOf(':') + 1);
  let current: string | null = null;
  for (const line of stdout.split('\n')) {
    if (line.trim() === '') continue;
    if (!/^\s/.test(line)) {
      const [, , local, peer] = line.trim().split(/\s+/);
      current = local && peer ? `${port(local)}>${port(peer)}` : null;
      continue;
    }
    const out = /\bsegs_out:(\d+)/.exec(line);
    const inbound = /\bsegs_in:(\d+)/.exec(line);
    if (current !== null && out && inbound) segments.set(current, Number(out[1]) + Number(inbound[1]));
  }
  return segments;
}

/**
 * Bytes on disk of each topic's partitions together, from what `kafka-log-dirs --describe` prints (a JSON line
 * after its progress lines). Throws, quoting the output, when there is no JSON line.
 */
export function parseLogDirSizes(stdout: string, topics: readonly string[]): Map<string, number> {
  const json = stdout.split('\n').find((line) => line.startsWith('{'));
  if (!json) throw new Error(`kafka-log-dirs printed no JSON:\n${stdout.slice(-2_000)}`);
  const parsed = JSON.parse(json) as {
    brokers: Array<{ logDirs: Array<{ partitions: Array<{ partition: string; size: number }> }> }>;
  };
  const sizes = new Map<string, number>(topics.map((topic) => [topic, 0]));
  for (const broker of parsed.brokers)
    for (const dir of broker.logDirs)
      for (const partition of dir.partitions) {
        // `<topic>-<partition>`: the topic is everything before the last dash.
        const topic = partition.partition.slice(0, partition.partition.lastIndexOf('-'));
        const size = sizes.get(topic);
        if (size !== undefined) sizes.set(topic, size + partition.size);
      }
  return sizes;
}
