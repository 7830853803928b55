import { createServer, type Server } from 'node:http';
import type { Readiness } from '../shared/worker-types';

export interface WorkerServerOptions {
  port: number;
  host?: string;
  readiness: () => Readiness;
  /** Prometheus exposition for `GET /metrics`; absent: 404. */
  metrics?: { contentType: string; render: () => Promise<string> };
}

/**
 * The worker's HTTP port: `GET /healthz` answers 200 while the process serves requests at all;
 * `GET /readyz` answers 200 only while the consumer demonstrably makes progress, else 503 with the reason;
 * `GET /metrics` serves Prometheus metrics (500 with the reason if rendering fails, never a crash).
 */
export class WorkerServer {
  private server: Server | null = null;

  constructor(private readonly options: WorkerServerOptions) {}

  async start(): Promise<number> {
    const server = createServer((request, response) => {
      const path = (request.url ?? '/').split('?')[0];
      const reply = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        response.end(JSON.stringify(body));
      };
      if (request.method !== 'GET') return reply(405, { error: 'only GET is served here' });
      if (path === '/healthz') return reply(200, { status: 'alive' });
      if (path === '/readyz') {
        const readiness = this.options.readiness();
        return reply(readiness.ready ? 200 : 503, {
          status: readiness.ready ? 'ready' : 'not-ready',
          detail: readiness.detail,
        });
      }
      const metrics = this.options.metrics;
      if (path === '/metrics' && metrics) {
        metrics.render().then(
          (body) => {
            response.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
            response.end(body);
          },
          (error: Error) => reply(500, { error: `metrics could not be rendered: ${error.message}` }),
        );
        return;
      }
      return reply(404, { error: `no route ${path}` });
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(error.code === 'EADDRINUSE' ? new Error(`WORKER_PORT ${this.options.port} is already in use`) : error),
      );
      server.listen(this.options.port, this.options.host ?? '127.0.0.1', () => resolve());
    });
    const address = server.address();
    return typeof address === 'object' && address ? address.port : this.options.port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
