import { summarizeLatency, type LatencySummary } from './stats';

// Latency samples in a growable Float64Array: recording is one store, no allocation per record, so the
// measurement costs the raw and the Warden consumer the same.

export class LatencyRecorder {
  private samples: Float64Array;
  private count = 0;

  constructor(expected: number) {
    this.samples = new Float64Array(Math.max(16, Math.ceil(expected)));
  }

  add(ms: number): void {
    if (this.count === this.samples.length) {
      const grown = new Float64Array(this.samples.length * 2);
      grown.set(this.samples);
      this.samples = grown;
    }
    this.samples[this.count++] = ms;
  }

  get size(): number {
    return this.count;
  }

  summary(): LatencySummary {
    return summarizeLatency(this.samples.subarray(0, this.count));
  }
}
