import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { childProcessEnv, minimalChildEnv } from '../lib/config/program-config';
import { askReadyz, waitUntilReady, type ReadyzAnswer } from './readiness';

// The example service (examples/orders-service) as a team would run it: @warden/consumer packed into a
// tarball, the example installed from it with npm into a copy of its own, built with tsc and started as
// `node dist/main.js`. Installs are cached under .warden/orders-service/installs by a hash of the tarball, the
// example's package.json and its .npmrc, so a second run with the same package only copies and builds.
// Where the tarball itself is not under test, ordersServiceFromSource runs the example's sources through tsx.

const ROOT = path.resolve(__dirname, '..');
export const CONSUMER_PACKAGE_DIR = path.join(ROOT, 'packages', 'consumer');
export const ORDERS_SERVICE_DIR = path.join(ROOT, 'examples', 'orders-service');
const WORK_DIR = path.join(ROOT, '.warden', 'orders-service');
/** Installs kept besides the one in use (older ones are removed by the next build). */
const KEPT_INSTALLS = 3;
/** Folders of a checkout of the example that are outputs, never copied. */
const EXAMPLE_OUTPUTS = new Set(['node_modules', 'dist', 'vendor']);

/**
 * The environment of a command run for a user's project: this process's, without what `npm test` or a
 * loader set for this repository (npm_* settings would point npm at this repository's workspace).
 */
export function cleanCommandEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(childProcessEnv())) {
    if (/^npm_/i.test(name) || name === 'NODE_OPTIONS' || name === 'INIT_CWD') continue;
    env[name] = value;
  }
  return { ...env, ...extra } as NodeJS.ProcessEnv;
}

export interface CommandOutput {
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to completion; resolves with its output, rejects with an error that names the command,
 * its folder, its exit code and the end of its output when it fails or outlives `timeoutMs`.
 */
export function runCommand(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<CommandOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? cleanCommandEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 300_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve({ stdout, stderr });
      const output = `${stdout}\n${stderr}`.trim().slice(-8_000);
      reject(
        new Error(
          `\`${[command, ...args].join(' ')}\` in ${options.cwd} ${signal ? `was killed (${signal})` : `exited ${code}`}:\n${output}`,
        ),
      );
    });
  });
}

/** Packs @warden/consumer as `npm pack` does for a user (its prepack builds dist); returns the tarball's path. */
export async function packConsumer(destination: string, packageDir = CONSUMER_PACKAGE_DIR): Promise<string> {
  mkdirSync(destination, { recursive: true });
  const before = new Set(readdirSync(destination));
  await runCommand('npm', ['pack', '--pack-destination', destination], { cwd: packageDir });
  const packed = readdirSync(destination).filter((name) => name.endsWith('.tgz') && !before.has(name));
  if (packed.length !== 1) throw new Error(`npm pack left ${packed.length} new tarballs in ${destination}`);
  return path.join(destination, packed[0]!);
}

/** How an instance of the example starts: `node <nodeArgs>` in `dir`, where its log file goes too. */
export interface OrdersServiceLaunch {
  dir: string;
  nodeArgs: string[];
  /** Variables every instance gets besides PATH, HOME and its own. */
  env?: Record<string, string>;
  /** Removes `dir`. */
  remove(): void;
}

export interface OrdersServiceBuild extends OrdersServiceLaunch {
  /** The built copy of the example: `node dist/main.js` runs here. */
  dir: string;
  /** The tarball the install came from. */
  tarball: string;
  /** True when the install was reused from an earlier build of the same tarball and package.json. */
  reusedInstall: boolean;
  /** Removes the built copy (the cached install stays). */
  remove(): void;
}

/**
 * The example run from its TypeScript sources through tsx with the repository's tsconfig, whose paths map
 * @warden/consumer to packages/consumer/src: no pack, install or build, so it starts in seconds (kafkajs and
 * pg come from the repository's node_modules). For tests of what the service does beside Warden, not of how
 * it installs; `dir` is a fresh folder for its log files.
 */
export function ordersServiceFromSource(): OrdersServiceLaunch {
  const runs = path.join(WORK_DIR, 'source-runs');
  removeStaleRuns(runs);
  const dir = path.join(runs, randomUUID());
  mkdirSync(dir, { recursive: true });
  return {
    dir,
    nodeArgs: ['--import', 'tsx', path.join(ORDERS_SERVICE_DIR, 'src', 'main.ts')],
    env: { TSX_TSCONFIG_PATH: path.join(ROOT, 'tsconfig.json') },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Packs the package, installs the example from the tarball (or reuses the cached install), copies the
 * example's sources next to it and builds them with the example's own `npm run build`.
 */
export async function buildOrdersService(options: { packageDir?: string } = {}): Promise<OrdersServiceBuild> {
  mkdirSync(WORK_DIR, { recursive: true });
  const packDir = path.join(WORK_DIR, `pack-${randomUUID()}`);
  try {
    const tarball = await packConsumer(packDir, options.packageDir);
    const { installDir, reused } = await installFromTarball(tarball);
    const runs = path.join(WORK_DIR, 'runs');
    removeStaleRuns(runs);
    const dir = path.join(runs, randomUUID());
    mkdirSync(dir, { recursive: true });
    cpSync(ORDERS_SERVICE_DIR, dir, {
      recursive: true,
      filter: (source) => !EXAMPLE_OUTPUTS.has(path.relative(ORDERS_SERVICE_DIR, source).split(path.sep)[0]!),
    });
    symlinkSync(path.join(installDir, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    await runCommand('npm', ['run', 'build'], { cwd: dir });
    return {
      dir,
      nodeArgs: ['dist/main.js'],
      tarball: path.join(installDir, 'vendor', path.basename(tarball)),
      reusedInstall: reused,
      remove: () => rmSync(dir, { recursive: true, force: true }),
    };
  } finally {
    rmSync(packDir, { recursive: true, force: true });
  }
}

/** `npm install` of the example's package.json and .npmrc with the tarball in vendor/, cached by their hash. */
async function installFromTarball(tarball: string): Promise<{ installDir: string; reused: boolean }> {
  const inputs = [tarball, path.join(ORDERS_SERVICE_DIR, 'package.json'), path.join(ORDERS_SERVICE_DIR, '.npmrc')];
  const hash = createHash('sha256');
  for (const file of inputs) hash.update(readFileSync(file)).update('\0');
  const installs = path.join(WORK_DIR, 'installs');
  const installDir = path.join(installs, hash.digest('hex').slice(0, 20));
  if (existsSync(path.join(installDir, 'node_modules'))) return { installDir, reused: true };

  // Installed aside and renamed into place, so an interrupted install is never taken for a finished one.
  const staging = `${installDir}.staging-${randomUUID()}`;
  try {
    mkdirSync(path.join(staging, 'vendor'), { recursive: true });
    for (const file of inputs.slice(1)) cpSync(file, path.join(staging, path.basename(file)));
    cpSync(tarball, path.join(staging, 'vendor', path.basename(tarball)));
    await runCommand('npm', ['install', '--no-audit', '--no-fund'], { cwd: staging });
    try {
      renameSync(staging, installDir);
    } catch (error) {
      // Another run finished the same install first: use that one.
      if (!existsSync(path.join(installDir, 'node_modules'))) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  pruneInstalls(installs, installDir);
  return { installDir, reused: false };
}

/** Built copies a run left behind (it crashed before `remove`), once they are a day old. */
function removeStaleRuns(runs: string): void {
  if (!existsSync(runs)) return;
  const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
  for (const name of readdirSync(runs)) {
    const dir = path.join(runs, name);
    if (statSync(dir).mtimeMs < dayAgo) rmSync(dir, { recursive: true, force: true });
  }
}

function pruneInstalls(installs: string, keep: string): void {
  const others = readdirSync(installs)
    .map((name) => path.join(installs, name))
    .filter((dir) => dir !== keep && !dir.includes('.staging-'))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  for (const dir of others.slice(KEPT_INSTALLS - 1)) rmSync(dir, { recursive: true, force: true });
}

/**
 * One running instance of the example (built, or from source): `node <nodeArgs>` in its own process group,
 * with exactly the environment given (plus PATH, HOME and the launch's own), its output kept in memory and in
 * `logFile`.
 */
export class OrdersServiceProcess {
  private child: ChildProcess | null = null;
  private exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | null = null;
  /** The last 256 KiB of the service's stdout and stderr, across restarts. */
  output = '';
  readonly logFile: string;

  constructor(
    private readonly launch: OrdersServiceLaunch,
    private readonly env: Record<string, string>,
    name = 'orders-service',
  ) {
    this.logFile = path.join(launch.dir, `${name}.log`);
  }

  get port(): string {
    const port = this.env.PORT;
    if (port === undefined) throw new Error('give the service a PORT');
    return port;
  }

  /** The service's process id while it runs. */
  get pid(): number | null {
    return this.child?.pid !== undefined && this.child.exitCode === null && this.child.signalCode === null
      ? this.child.pid
      : null;
  }

  /**
   * Starts the service and, unless `waitReady` is false, waits until /readyz answers 200; fails at once, with
   * its output, when the process exits first.
   */
  async start(waitReady = true, timeoutMs = 60_000): Promise<void> {
    if (this.pid !== null) throw new Error('the service is already running');
    const env: Record<string, string> = minimalChildEnv({ ...this.launch.env, ...this.env });
    const child = spawn(process.execPath, this.launch.nodeArgs, {
      cwd: this.launch.dir,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: env as NodeJS.ProcessEnv,
    });
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-262_144);
      appendFileSync(this.logFile, chunk);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.child = child;
    this.exit = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    if (!waitReady) return;
    await waitUntilReady({
      name: `the orders service on port ${this.port}`,
      ask: () => this.readiness(),
      exitedOutput: () => (this.pid === null ? this.output.slice(-4_000) : null),
      timeoutMs,
    });
  }

  /** What /readyz answers: 200 is ready; its detail, or why it could not be asked. */
  readiness(): Promise<ReadyzAnswer> {
    return askReadyz(this.port);
  }

  /**
   * Sends `signal` to the service's process group and waits for it to exit; SIGKILL after `timeoutMs`.
   * Resolves with how it exited (a code for a clean exit, the signal for a kill).
   */
  async stop(
    signal: NodeJS.Signals = 'SIGTERM',
    timeoutMs = 30_000,
  ): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const child = this.child;
    const exit = this.exit;
    if (child === null || exit === null) throw new Error('the service was never started');
    if (this.pid !== null) {
      signalGroup(child.pid!, signal);
      const timer = setTimeout(() => signalGroup(child.pid!, 'SIGKILL'), timeoutMs);
      await exit;
      clearTimeout(timer);
    }
    return exit;
  }

  /** Resolves with how the service exited, once it has (for a service expected to stop by itself). */
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.exit === null) throw new Error('the service was never started');
    return this.exit;
  }

  /** kill -9: the service stops at once, without draining, committing or saying goodbye. */
  kill(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    return this.stop('SIGKILL');
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** Writes `text` as the file `name` in a new folder; for throwaway projects in tests. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
}
