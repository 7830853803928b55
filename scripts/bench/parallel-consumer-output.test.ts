import { describe, expect, it } from 'vitest';
import { harnessArguments, harnessIsFresh, javaMajorVersion, parseHarnessOutput } from './parallel-consumer-output';

// The harness's line as ParallelConsumerBench.java prints it (Java writes large doubles with an exponent).
const HARNESS_LINE =
  '{"records":10000,"startEpochMs":1.7961503864451274E12,"endEpochMs":1.7961503949346748E12,' +
  '"latency":{"count":10000,"p50":838.65469,"p99":3123.974554,"max":3309.641271},"peakRssBytes":140156928,' +
  '"baselineRssBytes":43360256,"partitionDoneMs":[5131.806669,8489.518045,6254.403512,8489.545025,8489.541549,null],' +
  '"details":{"ordering":"unordered","maxConcurrency":16,"handled":10000,"commits":16,' +
  '"firstHandlerStartEpochMs":1.7961503875341875E12,"lastHandlerEndEpochMs":1.7961503938890417E12,"javaVersion":"17.0.15"}}';

describe('the Parallel Consumer harness output', () => {
  it('becomes a measurement with the window, latency and details the harness printed', () => {
    const measurement = parseHarnessOutput(`some stray line\n${HARNESS_LINE}\n\n`);
    expect(measurement.records).toBe(10_000);
    expect(measurement.endEpochMs - measurement.startEpochMs).toBeCloseTo(8489.5474, 3);
    expect(measurement.latency).toEqual({ count: 10_000, p50: 838.65469, p99: 3123.974554, max: 3309.641271 });
    expect(measurement.partitionDoneMs[5]).toBeNull();
    expect(measurement.details).toMatchObject({ ordering: 'unordered', commits: 16, handled: 10_000 });
  });

  it("throws the harness's own error line as its message", () => {
    expect(() => parseHarnessOutput('{"error":"not finished within 1000 ms: handled 3"}\n')).toThrow(
      'the Parallel Consumer harness failed: not finished within 1000 ms: handled 3',
    );
  });

  it('names what is wrong with missing, non-JSON or malformed output', () => {
    expect(() => parseHarnessOutput('\n \n')).toThrow('printed nothing on stdout');
    expect(() => parseHarnessOutput('Exception in thread "main"')).toThrow(
      `last line is not JSON: Exception in thread "main"`,
    );
    const noRecords = HARNESS_LINE.replace('"records":10000', '"records":0');
    expect(() => parseHarnessOutput(noRecords)).toThrow(/malformed: records: /);
    const badOrdering = HARNESS_LINE.replace('"ordering":"unordered"', '"ordering":"random"');
    expect(() => parseHarnessOutput(badOrdering)).toThrow(/malformed: details\.ordering: /);
    const backwards = HARNESS_LINE.replace('"endEpochMs":1.7961503949346748E12', '"endEpochMs":1.7E12');
    expect(() => parseHarnessOutput(backwards)).toThrow('endEpochMs is before startEpochMs');
  });
});

describe('the harness command line', () => {
  it('passes every setting as a flag', () => {
    expect(
      harnessArguments({
        brokers: ['127.0.0.1:18092', '127.0.0.1:18192'],
        topic: 'warden-bench.io',
        groupId: 'g',
        ordering: 'key',
        maxConcurrency: 100,
        handlerMs: 5,
        endOffsets: [668, 0, 664],
        commitIntervalMs: 1_000,
        timeoutMs: 60_000,
      }),
    ).toEqual([
      '--brokers',
      '127.0.0.1:18092,127.0.0.1:18192',
      '--topic',
      'warden-bench.io',
      '--group',
      'g',
      '--ordering',
      'key',
      '--max-concurrency',
      '100',
      '--handler-ms',
      '5',
      '--end-offsets',
      '668,0,664',
      '--commit-interval-ms',
      '1000',
      '--timeout-ms',
      '60000',
    ]);
  });

  it('refuses a run without brokers or end offsets', () => {
    const run = {
      brokers: ['b:1'],
      topic: 't',
      groupId: 'g',
      ordering: 'key' as const,
      maxConcurrency: 1,
      handlerMs: 0,
      endOffsets: [1],
      commitIntervalMs: 1,
      timeoutMs: 1,
    };
    expect(() => harnessArguments({ ...run, brokers: [] })).toThrow('at least one broker');
    expect(() => harnessArguments({ ...run, endOffsets: [] })).toThrow('end offsets');
  });
});

describe('the harness build', () => {
  it('is fresh only when built after every source', () => {
    expect(harnessIsFresh(2_000, [1_000, 2_000])).toBe(true);
    expect(harnessIsFresh(2_000, [1_000, 2_001])).toBe(false);
    expect(harnessIsFresh(null, [1_000])).toBe(false);
    expect(() => harnessIsFresh(2_000, [])).toThrow('no sources');
  });

  it('reads the major version from `java -version`', () => {
    expect(javaMajorVersion('openjdk version "17.0.15" 2025-04-15\nOpenJDK Runtime Environment')).toBe(17);
    expect(javaMajorVersion('java version "1.8.0_392"')).toBe(8);
    expect(javaMajorVersion('openjdk version "21" 2023-09-19')).toBe(21);
    expect(javaMajorVersion('command not found')).toBeNull();
  });
});
