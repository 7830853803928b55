import net from 'node:net';

/**
 * A loopback TCP proxy whose target can be made slow, silent or unreachable, as when a network degrades:
 * - latency: every chunk, both ways, is forwarded that many milliseconds late (in order);
 * - stalled: connections stay open and are accepted, but no byte passes, so clients wait into their
 *   request timeouts instead of seeing a refused connection;
 * - down: open connections are cut and new ones refused, as when the host vanishes.
 * Bytes held back while stalled are discarded, so every connection open during a stall is cut when it
 * ends: a stream with a hole in it must never reach either side.
 */
export class TcpProxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private down = false;
  private stalled = false;
  private latencyMs = 0;
  /** Sockets that lost bytes to a stall: cut when it ends. */
  private readonly stalledSockets = new Set<net.Socket>();

  constructor(private readonly target: { host: string; port: number }) {}

  /** Listens on `port` (0: any free port) and resolves with the port. */
  async start(port = 0): Promise<number> {
    const server = net.createServer((client) => {
      if (this.down) return void client.destroy();
      const upstream = net.connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => {
          this.sockets.delete(socket);
          this.stalledSockets.delete(socket);
        });
        socket.on('error', () => socket.destroy());
      }
      this.forward(client, upstream);
      this.forward(upstream, client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    return (server.address() as net.AddressInfo).port;
  }

  /** One direction: chunks leave in arrival order, each no earlier than its arrival plus the latency. */
  private forward(from: net.Socket, to: net.Socket): void {
    let queue = Promise.resolve();
    from.on('data', (chunk: Buffer) => {
      if (this.stalled) {
        this.stalledSockets.add(from);
        return;
      }
      const due = Date.now() + this.latencyMs;
      queue = queue.then(async () => {
        const wait = due - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        if (!to.destroyed && !this.stalledSockets.has(from)) to.write(chunk);
      });
    });
  }

  setDown(down: boolean): void {
    this.down = down;
    if (down) for (const socket of this.sockets) socket.destroy();
  }

  setLatency(ms: number): void {
    this.latencyMs = ms;
  }

  setStalled(stalled: boolean): void {
    this.stalled = stalled;
    if (!stalled) {
      for (const socket of this.stalledSockets) socket.destroy();
      this.stalledSockets.clear();
    }
  }

  async stop(): Promise<void> {
    this.setDown(true);
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
