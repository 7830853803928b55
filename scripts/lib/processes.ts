import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/** Runs a command to completion with inherited output; resolves with its exit code. */
export function run(command: string, args: string[], options: SpawnOptions = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', ...options });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/**
 * `run`, with every line the command prints prefixed by `prefix`: the output of two commands running at once
 * stays readable. Lines keep their stream (stdout or stderr); a last line without a newline is flushed at exit.
 */
export function runPrefixed(
  prefix: string,
  command: string,
  args: string[],
  options: SpawnOptions = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    const pipes = [
      { input: child.stdout!, output: process.stdout },
      { input: child.stderr!, output: process.stderr },
    ].map(({ input, output }) => {
      let pending = '';
      input.setEncoding('utf8');
      input.on('data', (chunk: string) => {
        const lines = (pending + chunk).split('\n');
        pending = lines.pop()!;
        for (const line of lines) output.write(`${prefix}${line}\n`);
      });
      return new Promise<void>((done) =>
        input.on('end', () => {
          if (pending) output.write(`${prefix}${pending}\n`);
          done();
        }),
      );
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      void Promise.all(pipes).then(() => resolve(code ?? (signal ? 128 : 1)));
    });
  });
}

/**
 * Children started by a script, stopped together: SIGTERM to each process group, then SIGKILL after
 * `graceMs`. Each child leads its own process group so grandchildren (next start, tsx) stop too.
 */
export class ProcessGroup {
  private readonly children: Array<{ name: string; child: ChildProcess }> = [];

  start(name: string, command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
    const child = spawn(command, args, { stdio: 'inherit', detached: true, ...options });
    this.children.push({ name, child });
    return child;
  }

  /** Stops one child started here (SIGTERM, SIGKILL after `graceMs`) and forgets it. */
  async stop(child: ChildProcess, graceMs = 10_000): Promise<void> {
    const index = this.children.findIndex((c) => c.child === child);
    if (index >= 0) this.children.splice(index, 1);
    await stopChild(child, graceMs);
  }

  async stopAll(graceMs = 10_000): Promise<void> {
    await Promise.all(this.children.reverse().map(({ child }) => stopChild(child, graceMs)));
    this.children.length = 0;
  }
}

async function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(child.pid, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(child.pid!, 'SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
  // Grandchildren that ignored SIGTERM must not outlive the script.
  signalGroup(child.pid, 'SIGKILL');
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}
