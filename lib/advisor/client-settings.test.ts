import { describe, expect, it } from 'vitest';
import {
  EMPTY_CLIENT_SETTINGS,
  JAVA_CLIENT_DEFAULTS,
  parseClientSettings,
  resolveClientSettings,
} from './client-settings';

describe('parseClientSettings and resolveClientSettings', () => {
  const table = parseClientSettings(
    JSON.stringify({
      'orders-batch': { maxPollRecords: 100, autoOffsetReset: 'earliest' },
      '/^etl-/i': { maxPollRecords: 2_000, maxPollIntervalMs: 900_000 },
      '/^etl-nightly$/': { maxPollRecords: 1 },
      '/.*-g$/g': { maxPollIntervalMs: 60_000 },
    }),
  );

  it('assumes the Java client defaults for a group nothing matches, and says so', () => {
    expect(resolveClientSettings(table, 'payments')).toEqual({
      maxPollRecords: 500,
      maxPollIntervalMs: 300_000,
      origin: {
        maxPollRecords: 'max.poll.records 500 (Java client default)',
        maxPollIntervalMs: 'max.poll.interval.ms 300000 (Java client default)',
      },
      autoOffsetReset: null,
    });
    expect(resolveClientSettings(EMPTY_CLIENT_SETTINGS, 'payments')).toMatchObject(JAVA_CLIENT_DEFAULTS);
  });

  it('takes an exact key first, keeping defaults for fields it leaves out', () => {
    expect(resolveClientSettings(table, 'orders-batch')).toEqual({
      maxPollRecords: 100,
      maxPollIntervalMs: 300_000,
      origin: {
        maxPollRecords: 'max.poll.records 100 (ADVISOR_CLIENT_SETTINGS "orders-batch")',
        maxPollIntervalMs: 'max.poll.interval.ms 300000 (Java client default)',
      },
      autoOffsetReset: {
        policy: 'earliest',
        origin: 'auto.offset.reset earliest (ADVISOR_CLIENT_SETTINGS "orders-batch")',
      },
    });
  });

  it('otherwise takes the first matching pattern, flags included', () => {
    expect(resolveClientSettings(table, 'ETL-nightly')).toMatchObject({
      maxPollRecords: 2_000,
      maxPollIntervalMs: 900_000,
    });
    expect(resolveClientSettings(table, 'etl-nightly').origin.maxPollRecords).toBe(
      'max.poll.records 2000 (ADVISOR_CLIENT_SETTINGS "/^etl-/i")',
    );
  });

  it('matches a global pattern the same way every time (no lastIndex state)', () => {
    expect(resolveClientSettings(table, 'a-g').maxPollIntervalMs).toBe(60_000);
    expect(resolveClientSettings(table, 'a-g').maxPollIntervalMs).toBe(60_000);
  });

  it('rejects bad input naming the key or field', () => {
    expect(() => parseClientSettings('{')).toThrow(/must be JSON/);
    expect(() => parseClientSettings('[1]')).toThrow(/JSON object/);
    expect(() => parseClientSettings('{"g": 5}')).toThrow(/"g" must map to an object/);
    expect(() => parseClientSettings('{"g": {"maxPollRecord": 5}}')).toThrow(/"g": unknown field "maxPollRecord"/);
    expect(() => parseClientSettings('{"g": {"maxPollRecords": 0}}')).toThrow(
      /"g".maxPollRecords must be a positive integer, got 0/,
    );
    expect(() => parseClientSettings('{"g": {"maxPollIntervalMs": "300000"}}')).toThrow(
      /positive integer, got "300000"/,
    );
    expect(() => parseClientSettings('{"/(/": {}}')).toThrow(/"\/\(\/" is not a valid/);
    expect(() => parseClientSettings('{"g": {"autoOffsetReset": "none"}}')).toThrow(
      /"g".autoOffsetReset must be "earliest" or "latest", got "none"/,
    );
    expect(() => parseClientSettings('{"g": {"autoOffsetReset": 1}}')).toThrow(/got 1/);
  });
});
