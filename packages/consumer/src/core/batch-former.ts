// Batch formation for `handleBatch`: the records the scheduler starts go into one forming batch, handed to
// the handler when it holds `batchSize` records, at the end of the scheduling turn that formed it when
// `batchLingerMs` is 0 or no execution slot is left for another record, else when the linger ends
// (`batchLingerMs` after its first record, on the injected clock). The core runs its scheduling turns in
// batch mode on the next timer turn after a request, so completions arriving together start one batch.
//
// Invariants:
// - A record is in at most one forming batch; the batch never holds more than `batchSize` records.
// - At most one linger timer is armed, and only while the forming batch is not empty; `stop` disarms it and
//   hands nothing over (the caller flushes first when the records must still run).

import type { Clock, TimerHandle } from './types.js';

export class BatchFormer<I> {
  private forming: I[] = [];
  private timer: TimerHandle | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly batchSize: number,
    private readonly lingerMs: number,
    /** Receives each batch, in formation order; never an empty one. */
    private readonly onBatch: (batch: I[]) => void,
  ) {}

  get size(): number {
    return this.forming.length;
  }

  add(item: I): void {
    this.forming.push(item);
    if (this.forming.length >= this.batchSize) {
      this.flush();
      return;
    }
    if (this.lingerMs === 0) return;
    this.timer ??= this.clock.setTimeout(() => {
      this.timer = null;
      this.flush();
    }, this.lingerMs);
  }

  /** A scheduling turn ended: without a linger, or when no further record could join, the batch goes now. */
  turnEnded(slotsLeft: boolean): void {
    if (this.lingerMs === 0 || !slotsLeft) this.flush();
  }

  /** Hands the forming batch over now (full, end of turn, linger over, drain, rebalance). */
  flush(): void {
    this.disarm();
    if (this.forming.length === 0) return;
    const batch = this.forming;
    this.forming = [];
    this.onBatch(batch);
  }

  stop(): void {
    this.disarm();
  }

  private disarm(): void {
    if (this.timer === null) return;
    this.clock.clearTimeout(this.timer);
    this.timer = null;
  }
}
