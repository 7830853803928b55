import { z } from 'zod';
import type { OrderingMode } from '@warden/consumer';
import type { Measurement } from './protocol';

// The TypeScript side of the Parallel Consumer harness (scripts/bench/parallel-consumer/), pure: the command line
// it is given, its one JSON line on stdout turned into a Measurement (or a clear error), and when its jar needs
// rebuilding.

export interface HarnessRun {
  brokers: readonly string[];
  topic: string;
  groupId: string;
  ordering: OrderingMode;
  maxConcurrency: number;
  handlerMs: number;
  endOffsets: readonly number[];
  commitIntervalMs: number;
  timeoutMs: number;
}

/** The harness's flags (HarnessArgs.java), every one given: it has no defaults of its own. */
export function harnessArguments(run: HarnessRun): string[] {
  if (run.brokers.length === 0) throw new Error('the Parallel Consumer harness needs at least one broker');
  if (run.endOffsets.length === 0) throw new Error('the Parallel Consumer harness needs the end offsets of the topic');
  return [
    '--brokers',
    run.brokers.join(','),
    '--topic',
    run.topic,
    '--group',
    run.groupId,
    '--ordering',
    run.ordering,
    '--max-concurrency',
    String(run.maxConcurrency),
    '--handler-ms',
    String(run.handlerMs),
    '--end-offsets',
    run.endOffsets.join(','),
    '--commit-interval-ms',
    String(run.commitIntervalMs),
    '--timeout-ms',
    String(run.timeoutMs),
  ];
}

const nullableMs = z.number().nonnegative().nullable();

const harnessMeasurement = z
  .object({
    records: z.number().int().positive(),
    startEpochMs: z.number().positive(),
    endEpochMs: z.number().positive(),
    latency: z.object({
      count: z.number().int().nonnegative(),
      p50: nullableMs,
      p99: nullableMs,
      max: nullableMs,
    }),
    peakRssBytes: z.number().int().nonnegative(),
    baselineRssBytes: z.number().int().nonnegative(),
    partitionDoneMs: z.array(nullableMs),
    details: z.object({
      ordering: z.enum(['unordered', 'key', 'partition']),
      maxConcurrency: z.number().int().positive(),
      handled: z.number().int().nonnegative(),
      commits: z.number().int().nonnegative(),
      firstHandlerStartEpochMs: z.number().positive(),
      lastHandlerEndEpochMs: z.number().positive(),
      javaVersion: z.string(),
    }),
  })
  .refine((m) => m.endEpochMs >= m.startEpochMs, { message: 'endEpochMs is before startEpochMs' });

const harnessError = z.object({ error: z.string() });

/**
 * The harness's measurement from its stdout: the last non-empty line must be its JSON (a measurement, or
 * {"error"} which is thrown as the harness's own message). Anything else is an error quoting what was there.
 */
export function parseHarnessOutput(stdout: string): Measurement {
  const lines = stdout.split('\n').filter((line) => line.trim() !== '');
  const last = lines[lines.length - 1];
  if (last === undefined) throw new Error('the Parallel Consumer harness printed nothing on stdout');
  let json: unknown;
  try {
    json = JSON.parse(last);
  } catch {
    throw new Error(`the Parallel Consumer harness's last line is not JSON: ${last.slice(0, 200)}`);
  }
  const failure = harnessError.safeParse(json);
  if (failure.success) throw new Error(`the Parallel Consumer harness failed: ${failure.data.error}`);
  const parsed = harnessMeasurement.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new Error(`the Parallel Consumer harness's measurement is malformed: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/**
 * Whether the built jar is at least as new as every file it is built from (pom.xml and the sources). A missing
 * jar or dependency folder (null) is never fresh.
 */
export function harnessIsFresh(builtMtimeMs: number | null, sourceMtimesMs: readonly number[]): boolean {
  if (builtMtimeMs === null) return false;
  if (sourceMtimesMs.length === 0) throw new Error('the Parallel Consumer harness has no sources to compare with');
  return sourceMtimesMs.every((mtime) => mtime <= builtMtimeMs);
}

/** The major version of `java -version`'s output (`openjdk version "17.0.15"`, `"1.8.0_392"` = 8); null if absent. */
export function javaMajorVersion(versionOutput: string): number | null {
  const match = /version "(\d+)(?:\.(\d+))?/.exec(versionOutput);
  if (!match) return null;
  const first = Number(match[1]);
  return first === 1 && match[2] !== undefined ? Number(match[2]) : first;
}
