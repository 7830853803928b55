import { describe, expect, it } from 'vitest';
import { settingsFromRow } from './load-retention';

describe('settingsFromRow', () => {
  it('reads a stored row as settings; a refused one has nothing but its refusal', () => {
    const row = {
      cleanupPolicy: 'delete',
      retentionMs: 20_000n,
      retentionBytes: -1n,
      segmentMs: 2_000n,
      segmentBytes: 1_048_576n,
      checkIntervalMs: 5_000n,
      readError: null,
      recordBytes: 120.5,
    };
    expect(settingsFromRow(row)).toEqual({
      cleanupPolicy: 'delete',
      retentionMs: 20_000,
      retentionBytes: -1,
      segmentMs: 2_000,
      segmentBytes: 1_048_576,
      checkIntervalMs: 5_000,
      recordBytes: 120.5,
      readError: null,
    });
    expect(settingsFromRow({ ...row, readError: 'not authorized' })).toEqual({
      cleanupPolicy: null,
      retentionMs: null,
      retentionBytes: null,
      segmentMs: null,
      segmentBytes: null,
      checkIntervalMs: null,
      recordBytes: null,
      readError: 'not authorized',
    });
  });
});
