// How long processing stopped around each fault: from samples of the stored count over time, the longest
// stretch without a new stored record inside each fault's window (from the fault to the next one, or to the
// end of the run). Pure; unit-tested on plain data.

export interface ProgressSample {
  atMs: number;
  /** Records handled so far (stored or dead-lettered); never decreases. */
  handled: number;
}

export interface FaultMark {
  fault: string;
  atMs: number;
}

export interface FaultStall {
  fault: string;
  /** Seconds from the start of the run to the fault. */
  atSeconds: number;
  /** The longest stretch in the fault's window with no new handled record, in seconds. */
  longestStopSeconds: number;
}

/**
 * Each fault's window runs from its mark to the next mark (or `endMs`). A stretch without progress that
 * began before the window is counted from the window's start, so a stop is charged to the fault it spans.
 * A window in which nothing was left to do (every record handled) ends at the last new record.
 */
export function longestStops(
  samples: readonly ProgressSample[],
  faults: readonly FaultMark[],
  startMs: number,
  endMs: number,
  total: number,
): FaultStall[] {
  const ordered = [...faults].sort((a, b) => a.atMs - b.atMs);
  return ordered.map((mark, i) => {
    const windowEnd = ordered[i + 1]?.atMs ?? endMs;
    let longest = 0;
    let lastChange = mark.atMs;
    let lastHandled = samples.filter((s) => s.atMs <= mark.atMs).at(-1)?.handled ?? 0;
    for (const sample of samples) {
      if (sample.atMs <= mark.atMs || sample.atMs > windowEnd) continue;
      if (lastHandled >= total) break;
      if (sample.handled > lastHandled) {
        longest = Math.max(longest, sample.atMs - lastChange);
        lastChange = sample.atMs;
        lastHandled = sample.handled;
      }
    }
    if (lastHandled < total) longest = Math.max(longest, windowEnd - lastChange);
    return {
      fault: mark.fault,
      atSeconds: round((mark.atMs - startMs) / 1000),
      longestStopSeconds: round(longest / 1000),
    };
  });
}

const round = (seconds: number) => Math.round(seconds * 10) / 10;
