import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { childProcessEnv } from '../../lib/config/program-config';
import { askReadyz, waitUntilReady, type ReadyzAnswer } from '../../test-support/readiness';

const ROOT = path.resolve(__dirname, '..', '..');

/** A real worker process (what `npm run worker` runs, as one node process so signals and exit codes are its own). */
export class WorkerProcess {
  private child: ChildProcess | null = null;
  output = '';

  constructor(private readonly env: Record<string, string>) {}

  get port(): string {
    return this.env.WORKER_PORT!;
  }

  /** The worker's process id while it runs (it is the node process itself, for RSS readings). */
  get pid(): number | null {
    return this.child?.pid !== undefined && this.child.exitCode === null ? this.child.pid : null;
  }

  /**
   * Starts the worker and, unless `waitReady` is false, waits until its /readyz says ready; fails at once, with
   * its output, when the process exits first.
   */
  async start(waitReady = true): Promise<void> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'worker/main.ts'], {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: childProcessEnv(this.env),
    });
    // The last 64 KiB of its logs, for reports when something went wrong.
    const keep = (chunk: Buffer) => (this.output = (this.output + chunk.toString()).slice(-65_536));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.child = child;
    if (!waitReady) return;
    await waitUntilReady({
      name: `the worker on port ${this.port}`,
      ask: () => this.readiness(),
      exitedOutput: () => (this.pid === null ? this.output.slice(-4_000) : null),
      timeoutMs: 60_000,
    });
  }

  async ready(): Promise<boolean> {
    return (await this.readiness()).ready;
  }

  /** What /readyz answers: 200 is ready; its detail, or why it could not be asked. */
  readiness(): Promise<ReadyzAnswer> {
    return askReadyz(this.port);
  }

  /** Sends `signal` to the worker's process group without waiting; resolves with its exit code once it exits. */
  signal(signal: NodeJS.Signals): Promise<number | null> {
    const child = this.child;
    if (!child?.pid || child.exitCode !== null) return Promise.resolve(child?.exitCode ?? null);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    process.kill(-child.pid, signal);
    return exited;
  }

  /** Sends `signal` to the whole process group and waits for the worker to exit; returns its exit code. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    const child = this.child;
    this.child = null;
    if (!child?.pid || child.exitCode !== null) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    process.kill(-child.pid, signal);
    return exited;
  }
}
