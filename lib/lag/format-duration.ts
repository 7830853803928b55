// Human durations for summaries, reasons and the UI: "45 s", "4 min 20 s", "5 min", "1 h 3 min", "2 d 5 h".
// Precision shrinks as the duration grows (at most two units), and every unit boundary is computed after
// rounding, so 3,599.6 s reads "1 h", never "60 min".

/**
 * Formats a non-negative number of seconds. Positive durations that round to 0 s read "< 1 s" so a real
 * (tiny) lag is never shown as none. Throws RangeError for NaN, infinities and negatives: "never" is the
 * caller's word (it holds null), not a duration.
 */
export function formatDuration(sec: number): string {
  if (!Number.isFinite(sec) || sec < 0) throw new RangeError(`formatDuration needs a finite duration >= 0, got ${sec}`);
  const seconds = Math.round(sec);
  if (seconds === 0) return sec > 0 ? '< 1 s' : '0 s';
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return twoUnits(Math.floor(seconds / 60), 'min', seconds % 60, 's');
  const minutes = Math.round(seconds / 60);
  if (minutes < 24 * 60) return twoUnits(Math.floor(minutes / 60), 'h', minutes % 60, 'min');
  const hours = Math.round(seconds / 3600);
  return twoUnits(Math.floor(hours / 24), 'd', hours % 24, 'h');
}

function twoUnits(major: number, majorUnit: string, minor: number, minorUnit: string): string {
  return minor === 0 ? `${major} ${majorUnit}` : `${major} ${majorUnit} ${minor} ${minorUnit}`;
}
