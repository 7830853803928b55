import { describe, expect, it } from 'vitest';
import { CONSUMER_CORE_DEFAULTS, resolveCoreSettings, type ConsumerCoreOptions } from './consumer-core-options.js';
import { defaultClassifyError } from './classify-error.js';
import { FakeSource } from './testing/fake-source.js';
import { ManualClock } from './testing/fake-clock.js';

function options(overrides: Partial<ConsumerCoreOptions<string>> = {}): ConsumerCoreOptions<string> {
  return {
    source: new FakeSource(),
    clock: new ManualClock(),
    random: () => 0.5,
    admit: (record) => ({ ok: true, value: record.offset, orderingKey: null }),
    handle: () => Promise.resolve(),
    ...overrides,
  };
}

describe('CONSUMER_CORE_DEFAULTS', () => {
  it('holds the default of every tunable option', () => {
    expect(CONSUMER_CORE_DEFAULTS).toEqual({
      ordering: 'key',
      quarantinePolicy: 'pause',
      maxInFlight: 64,
      maxInFlightPerPartition: 16,
      maxPendingPerPartition: 1000,
      maxBufferedBytesPerPartition: 8 * 1024 * 1024,
      retry: { baseMs: 100, maxMs: 30_000 },
      commitIntervalMs: 1000,
      metadataMaxBytes: 4000,
      stallThresholdMs: 30_000,
      stallDeadLetterAfterMs: null,
      stallCheckIntervalMs: 1000,
      batchSize: 100,
      batchLingerMs: 0,
    });
  });
});

describe('resolveCoreSettings', () => {
  it('applies the defaults and the default classifiers', () => {
    const settings = resolveCoreSettings(options());
    expect(settings).toMatchObject(CONSUMER_CORE_DEFAULTS);
    expect(settings.classifyError).toBe(defaultClassifyError);
    expect(settings.classifyCommitError).toBe(defaultClassifyError);
  });

  it('keeps given values; the commit classifier defaults to the error classifier', () => {
    const classifyError = () => 'transient' as const;
    const settings = resolveCoreSettings(
      options({
        ordering: 'unordered',
        maxInFlight: 3,
        commitIntervalMs: 0,
        stallDeadLetterAfterMs: null,
        classifyError,
      }),
    );
    expect(settings).toMatchObject({ ordering: 'unordered', maxInFlight: 3, commitIntervalMs: 0 });
    expect(settings.classifyCommitError).toBe(classifyError);
  });

  it.each<[Partial<ConsumerCoreOptions<string>>, RegExp]>([
    [{ ordering: 'random' as never }, /^unknown ordering random$/],
    [{ quarantinePolicy: 'drop' as never }, /^unknown quarantinePolicy drop$/],
    [{ maxInFlight: 0 }, /^maxInFlight must be a positive integer, got 0$/],
    [{ maxInFlightPerPartition: 2.5 }, /^maxInFlightPerPartition must be a positive integer/],
    [{ maxPendingPerPartition: -1 }, /^maxPendingPerPartition must be a positive integer/],
    [{ maxBufferedBytesPerPartition: Number.NaN }, /^maxBufferedBytesPerPartition must be a positive integer/],
    [{ retry: { baseMs: -1, maxMs: 10 } }, /retry.baseMs must be >= 0/],
    [{ commitIntervalMs: -1 }, /^commitIntervalMs must be >= 0, got -1$/],
    [{ metadataMaxBytes: Number.POSITIVE_INFINITY }, /^metadataMaxBytes must be >= 0/],
    [{ stallThresholdMs: -5 }, /^stallThresholdMs must be >= 0/],
    [{ stallDeadLetterAfterMs: -1, deadLetter: () => Promise.resolve() }, /^stallDeadLetterAfterMs must be >= 0/],
    [{ stallCheckIntervalMs: 0 }, /^stallCheckIntervalMs must be a positive integer/],
    [{ batchSize: 1.5 }, /^batchSize must be a positive integer/],
    [{ batchLingerMs: -1 }, /^batchLingerMs must be >= 0/],
  ])('rejects %o', (bad, message) => {
    expect(() => resolveCoreSettings(options(bad))).toThrow(RangeError);
    expect(() => resolveCoreSettings(options(bad))).toThrow(message);
  });

  it('requires a deadLetter port for the dead-letter policy and for stall dead-letters', () => {
    expect(() => resolveCoreSettings(options({ quarantinePolicy: 'dead-letter' }))).toThrow(
      "quarantinePolicy 'dead-letter' needs a deadLetter port",
    );
    expect(() => resolveCoreSettings(options({ stallDeadLetterAfterMs: 1000 }))).toThrow(
      'stallDeadLetterAfterMs needs a deadLetter port',
    );
    const deadLetter = () => Promise.resolve();
    expect(
      resolveCoreSettings(options({ quarantinePolicy: 'dead-letter', stallDeadLetterAfterMs: 0, deadLetter })),
    ).toMatchObject({ quarantinePolicy: 'dead-letter', stallDeadLetterAfterMs: 0 });
  });
});
