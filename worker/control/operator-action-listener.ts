import pg from 'pg';
import { OPERATOR_ACTION_CHANNEL } from '../../lib/schemas/operator-actions';

/**
 * LISTENs for new operator actions so the command relay sends them at once instead of at its next poll (every
 * group's: the relay serves them all). Best effort: when the connection drops it reconnects after `retryMs`,
 * and the relay keeps polling meanwhile, so a lost notification only delays an action by one poll interval.
 */
export class OperatorActionListener {
  private client: pg.Client | null = null;
  private retry: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly options: {
      databaseUrl: string;
      onNotify: () => void;
      onError?: (error: Error) => void;
      retryMs?: number;
    },
  ) {}

  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.databaseUrl });
    client.on('notification', () => this.options.onNotify());
    client.on('error', (error) => this.reconnect(client, error));
    try {
      await client.connect();
      await client.query(`LISTEN ${OPERATOR_ACTION_CHANNEL}`);
      if (this.stopped) {
        await client.end();
        return;
      }
      this.client = client;
    } catch (error) {
      this.reconnect(client, error as Error);
    }
  }

  private reconnect(client: pg.Client, error: Error): void {
    if (this.client === client) this.client = null;
    void client.end().catch(() => undefined);
    if (this.stopped || this.retry) return;
    this.options.onError?.(error);
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.connect();
    }, this.options.retryMs ?? 5_000);
  }
}
