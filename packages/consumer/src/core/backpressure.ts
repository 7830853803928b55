// Backpressure of one partition, with hysteresis: it turns on when the pending (delivered, uncommitted)
// records reach `maxPending` or the unfinished payload bytes reach `maxBytes`, and off only once both are
// below half their limit, so a partition near its limit does not pause and resume on every record.
//
// The pending budget frees only when the broker acknowledges a commit. So from half the pending budget on, a
// commit that would release records is sent on the next timer turn rather than at the next interval:
// otherwise a partition that fills its budget within one interval pauses on every interval, and a paused one
// idles until the interval ends.

export class Backpressure {
  private readonly resumePending: number;
  private readonly resumeBytes: number;

  constructor(
    private readonly maxPending: number,
    private readonly maxBytes: number,
  ) {
    this.resumePending = maxPending / 2;
    this.resumeBytes = maxBytes / 2;
  }

  /** The partition's next state: on at either limit, off below half of both, else unchanged. */
  next(backpressured: boolean, pending: number, unfinishedBytes: number): boolean {
    if (backpressured) return pending >= this.resumePending || unfinishedBytes >= this.resumeBytes;
    return pending >= this.maxPending || unfinishedBytes >= this.maxBytes;
  }

  /** A partition this close to its pending limit commits on the next timer turn (when a commit releases records). */
  commitsEarly(backpressured: boolean, pending: number): boolean {
    return backpressured || pending >= this.resumePending;
  }
}
