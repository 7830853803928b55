import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eventually } from './eventually';

/** Debian's real Prometheus server on a loopback port, with a throwaway config and data directory. */
export class PrometheusServer {
  private child: ChildProcess | null = null;
  private readonly dir = mkdtempSync(path.join(tmpdir(), 'warden-prometheus-'));
  output = '';

  constructor(
    private readonly options: {
      port: number;
      ruleFiles: string[];
      targets: string[];
      job: string;
      intervalSec: number;
    },
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.options.port}`;
  }

  async start(): Promise<void> {
    const { intervalSec, job, targets, ruleFiles } = this.options;
    const config = [
      'global:',
      `  scrape_interval: ${intervalSec}s`,
      `  evaluation_interval: ${intervalSec}s`,
      'rule_files:',
      ...ruleFiles.map((f) => `  - ${JSON.stringify(f)}`),
      'scrape_configs:',
      `  - job_name: ${JSON.stringify(job)}`,
      '    static_configs:',
      `      - targets: ${JSON.stringify(targets)}`,
    ].join('\n');
    writeFileSync(path.join(this.dir, 'prometheus.yml'), config);
    this.child = spawn(
      '/usr/bin/prometheus',
      [
        `--config.file=${path.join(this.dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${path.join(this.dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${this.options.port}`,
      ],
      { detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const keep = (chunk: Buffer) => (this.output = (this.output + chunk.toString()).slice(-32_768));
    this.child.stdout!.on('data', keep);
    this.child.stderr!.on('data', keep);
    await eventually(`prometheus on ${this.url} ready`, async () => {
      const response = await fetch(`${this.url}/-/ready`).catch(() => null);
      return response?.ok ? true : undefined;
    });
  }

  /** GET /api/v1/alerts: the alerts the server's rules hold now, pending or firing. */
  async alerts(): Promise<
    Array<{ labels: Record<string, string>; state: string; annotations: Record<string, string> }>
  > {
    const response = await fetch(`${this.url}/api/v1/alerts`);
    const body = (await response.json()) as {
      data: { alerts: Array<{ labels: Record<string, string>; state: string; annotations: Record<string, string> }> };
    };
    return body.data.alerts;
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (child?.pid && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid, 'SIGTERM');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
