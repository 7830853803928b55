import { describe, expect, it } from 'vitest';
import { percentile, readMetrics, workerReadings } from './samples';

const METRICS = `# HELP process_resident_memory_bytes Resident memory size in bytes.
# TYPE process_resident_memory_bytes gauge
process_resident_memory_bytes 123456789
nodejs_heap_size_used_bytes 45678901
nodejs_eventloop_lag_p99_seconds 0.012
nodejs_active_handles_total 17
nodejs_active_handles{type="Socket"} 9
warden_other{label="x"} NaN
`;

describe('readMetrics', () => {
  it('reads the named gauges, the first sample of each', () => {
    expect(workerReadings(METRICS)).toEqual({
      rssBytes: 123456789,
      heapUsedBytes: 45678901,
      loopP99Seconds: 0.012,
      activeHandles: 17,
    });
  });

  it('leaves out missing names and values that are not numbers', () => {
    const values = readMetrics(METRICS, ['warden_other', 'absent']);
    expect(values.size).toBe(0);
    expect(workerReadings('')).toEqual({
      rssBytes: null,
      heapUsedBytes: null,
      loopP99Seconds: null,
      activeHandles: null,
    });
  });
});

describe('percentile', () => {
  it('is the nearest rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 95)).toBe(95);
    expect(percentile([3, 1, 2], 50)).toBe(2);
    expect(percentile([], 95)).toBeNull();
  });
});
