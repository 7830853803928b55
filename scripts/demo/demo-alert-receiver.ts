import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AlertPayloadV1 } from '../../lib/alerts/alert-payload';
import { deliveryLatency, type ReceivedAlert } from './alert-latency';

/**
 * The demo's alert receiver: a JSON webhook on a loopback port that prints every alert it gets and answers
 * GET / with all of them, newest last, so a user sees what on-call would have been sent. A body that is not
 * an alert payload is answered 400 and printed as such.
 */
export class DemoAlertReceiver {
  private server: Server | null = null;
  readonly received: Array<ReceivedAlert & { payload: AlertPayloadV1 }> = [];

  constructor(private readonly print: (line: string) => void) {}

  get url(): string {
    const address = this.server?.address() as AddressInfo | null;
    if (!address) throw new Error('alert receiver not started');
    return `http://127.0.0.1:${address.port}`;
  }

  /** Listens on `port` (0: any free port); a restart on the same port keeps the workers' webhook URL valid. */
  async start(port = 0): Promise<void> {
    this.server = createServer((req, res) => {
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(this.received, null, 2));
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        let payload: AlertPayloadV1;
        try {
          payload = JSON.parse(Buffer.concat(chunks).toString()) as AlertPayloadV1;
          if (payload.version !== 1) throw new Error('not a version 1 alert payload');
        } catch (error) {
          this.print(`alert ▶ refused a body that is not an alert (${(error as Error).message})`);
          res.writeHead(400).end();
          return;
        }
        this.received.push({ payload, receivedAtMs: Date.now() });
        const label = payload.kind === 'reminder' ? 'REMINDER' : payload.status.toUpperCase();
        this.print(`alert ▶ [${label} ${payload.severity}] ${payload.summary}  ${payload.dashboardUrl}`);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
  }

  /** One line: how many alerts arrived and how long from condition and from firing to delivery. */
  summary(): string {
    const latency = deliveryLatency(this.received);
    const ms = (v: number | null) => (v === null ? '-' : `${v} ms`);
    return (
      `alerts: ${this.received.length} received, ${latency.count} fired; firing → received p50 ${ms(latency.firingToReceived.p50)}, ` +
      `p95 ${ms(latency.firingToReceived.p95)}; condition → received p50 ${ms(latency.conditionToReceived.p50)}, p95 ${ms(latency.conditionToReceived.p95)}`
    );
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }
}
