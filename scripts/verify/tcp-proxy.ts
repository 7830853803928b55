import net from 'node:net';

/**
 * A loopback TCP proxy whose target can be made unreachable: while down, open connections are cut and new
 * ones refused, as when the database host vanishes. Used to take Postgres away from workers for a while.
 */
export class TcpProxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private down = false;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<number> {
    const server = net.createServer((client) => {
      if (this.down) return void client.destroy();
      const upstream = net.connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as net.AddressInfo).port;
  }

  setDown(down: boolean): void {
    this.down = down;
    if (down) for (const socket of this.sockets) socket.destroy();
  }

  async stop(): Promise<void> {
    this.setDown(true);
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
