import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { harnessArguments, harnessIsFresh, javaMajorVersion, parseHarnessOutput } from './parallel-consumer-output';
import type { WorkloadPlan } from './plan';
import type { Measurement } from './protocol';
import { WorkloadSkipped } from './summary';
import type { PreparedTopic } from './topics';

// The orchestrator's side of the Parallel Consumer rows: the harness in scripts/bench/parallel-consumer/ built
// with Maven (once per bench run, and only when its jar is older than its sources) and run in a JVM of its
// own on the pre-produced topic. No `java` (17+), or no `mvn` when a build is needed, skips these rows with
// the reason (WorkloadSkipped); a failed build or run is a failure of the row.

const HARNESS_DIR = path.join(__dirname, 'parallel-consumer');
const BUILD_DIR = path.join(HARNESS_DIR, 'target');
const JAR = path.join(BUILD_DIR, 'pc-bench-harness.jar');
const LIB_DIR = path.join(BUILD_DIR, 'lib');
const MIN_JAVA = 17;
/** Extra time the harness gets beyond its own timeout to report it before it is killed. */
const KILL_GRACE_MS = 30_000;
/** stderr kept for a failure's message. */
const STDERR_TAIL_CHARS = 4_000;

export interface ParallelConsumerServices {
  brokers: string[];
  commitIntervalMs: number;
  timeoutMs: number;
  log: (line: string) => void;
}

let harness: Promise<string> | null = null;

/** The jar to run, built if needed, once per bench run; WorkloadSkipped when the toolchain is missing. */
function prepareHarness(log: (line: string) => void): Promise<string> {
  harness ??= (async () => {
    const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
    if (java.error)
      throw new WorkloadSkipped(`no \`java\` on PATH (${java.error.message}); Java ${MIN_JAVA}+ runs these rows`);
    const major = javaMajorVersion(`${java.stderr}${java.stdout}`);
    if (major === null || major < MIN_JAVA)
      throw new WorkloadSkipped(
        `\`java -version\` says ${major === null ? 'no version' : `Java ${major}`}; these rows need Java ${MIN_JAVA}+`,
      );
    if (harnessIsFresh(builtMtimeMs(), sourceMtimesMs())) return JAR;
    const mvn = spawnSync('mvn', ['-v'], { encoding: 'utf8' });
    if (mvn.error)
      throw new WorkloadSkipped(
        `no \`mvn\` on PATH (${mvn.error.message}) to build ${path.relative(process.cwd(), HARNESS_DIR)}`,
      );
    log('building the Parallel Consumer harness (mvn -q package; the first build downloads its dependencies)');
    const built = await runCollecting('mvn', ['-q', '-B', 'package'], { cwd: HARNESS_DIR, timeoutMs: 900_000 });
    if (built.code !== 0 || !existsSync(JAR))
      throw new Error(`mvn package failed (exit ${built.code}): ${tail(`${built.stdout}\n${built.stderr}`)}`);
    return JAR;
  })();
  return harness;
}

/**
 * The jar's time (every package rewrites it; copy-dependencies leaves unchanged files alone, so the folder's time
 * says nothing); null when the jar or its dependency folder is missing.
 */
function builtMtimeMs(): number | null {
  if (!existsSync(JAR) || !existsSync(LIB_DIR) || readdirSync(LIB_DIR).length === 0) return null;
  return statSync(JAR).mtimeMs;
}

function sourceMtimesMs(): number[] {
  const sources = readdirSync(path.join(HARNESS_DIR, 'src'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
  return [path.join(HARNESS_DIR, 'pom.xml'), ...sources].map((file) => statSync(file).mtimeMs);
}

function tail(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > STDERR_TAIL_CHARS ? `…${trimmed.slice(-STDERR_TAIL_CHARS)}` : trimmed;
}

interface Collected {
  code: number;
  stdout: string;
  stderr: string;
  /** Killed after `timeoutMs` without having exited. */
  killed: boolean;
}

/** Runs a command to its end with its output collected (stderr also passed on to ours); kills it after `timeoutMs`. */
function runCollecting(
  command: string,
  args: string[],
  options: { cwd?: string; timeoutMs: number },
): Promise<Collected> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
      process.stderr.write(chunk);
    });
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr, killed });
    });
  });
}

/** One run of a Parallel Consumer row on its pre-produced topic, from the beginning, in a fresh group. */
export async function runParallelConsumer(
  plan: WorkloadPlan,
  services: ParallelConsumerServices,
  prepared: PreparedTopic,
): Promise<Measurement> {
  if (!plan.ordering || plan.maxInFlight === undefined)
    throw new Error(`workload ${plan.id}: a Parallel Consumer row needs its ordering and maxInFlight`);
  const jar = await prepareHarness(services.log);
  const args = harnessArguments({
    brokers: services.brokers,
    topic: prepared.topic,
    groupId: `warden-bench-${plan.id}-${randomUUID().slice(0, 8)}`,
    ordering: plan.ordering,
    maxConcurrency: plan.maxInFlight,
    handlerMs: plan.handlerMs,
    endOffsets: prepared.endOffsets,
    commitIntervalMs: services.commitIntervalMs,
    timeoutMs: services.timeoutMs,
  });
  const result = await runCollecting('java', ['-Dorg.slf4j.simpleLogger.defaultLogLevel=warn', '-jar', jar, ...args], {
    timeoutMs: services.timeoutMs + KILL_GRACE_MS,
  });
  try {
    if (result.killed)
      throw new Error(`the harness did not answer within ${services.timeoutMs + KILL_GRACE_MS} ms; killed`);
    const measurement = parseHarnessOutput(result.stdout);
    if (result.code !== 0) throw new Error(`exited ${result.code} after its measurement`);
    return measurement;
  } catch (error) {
    throw new Error(
      `workload ${plan.id}: ${(error as Error).message}${result.stderr ? `\nstderr: ${tail(result.stderr)}` : ''}`,
      { cause: error },
    );
  }
}
