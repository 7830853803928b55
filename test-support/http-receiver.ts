import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  atMs: number;
}

/** What the receiver answers for one request: a status after an optional delay (never answers: `hang`). */
export type ReceiverBehaviour = (
  request: ReceivedRequest,
  nth: number,
) => { status: number; delayMs?: number } | 'hang';

/**
 * A real HTTP receiver on a loopback port for alert delivery tests. Each path has its own behaviour and keeps
 * every request it got, in order.
 */
export class HttpReceiver {
  private server: Server | null = null;
  readonly received: ReceivedRequest[] = [];
  private readonly behaviours = new Map<string, ReceiverBehaviour>();
  private readonly hanging = new Set<() => void>();

  on(path: string, behaviour: ReceiverBehaviour): string {
    this.behaviours.set(path, behaviour);
    return `${this.url}${path}`;
  }

  requestsTo(path: string): ReceivedRequest[] {
    return this.received.filter((r) => r.path === path);
  }

  get url(): string {
    const address = this.server?.address() as AddressInfo | null;
    if (!address) throw new Error('receiver not started');
    return `http://127.0.0.1:${address.port}`;
  }

  async start(port = 0): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request = {
          path: req.url ?? '/',
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
          atMs: Date.now(),
        };
        this.received.push(request);
        const behaviour: ReceiverBehaviour = this.behaviours.get(request.path) ?? (() => ({ status: 404 }));
        const answer = behaviour(request, this.requestsTo(request.path).length);
        if (answer === 'hang') {
          const release = () => res.destroy();
          this.hanging.add(release);
          res.on('close', () => this.hanging.delete(release));
          return;
        }
        const reply = () =>
          res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.status < 300 ? 'ok' : 'no');
        if (answer.delayMs) setTimeout(reply, answer.delayMs);
        else reply();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    for (const release of this.hanging) release();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }
}

/** A loopback port nothing listens on (bound, then released). */
export async function unusedLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
