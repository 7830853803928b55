// Numbers and durations as people read them, for the dashboard, the advisor's sentences and the scripts'
// tables: one module, fixed to en-US so text is stable across hosts. Functions whose input may be unknown
// take null and show "—"; the others expect a value.

const MISSING = '—';

/**
 * `value` as en-US writes it, with thousands separators and at most `maxFractionDigits` decimals, as
 * Intl.NumberFormat does: rounded half away from zero on the shortest decimal that reads back as the value
 * (`String(value)`), so 1.005 reads "1.01" at two decimals. A value that rounds to zero reads "0", never "-0".
 * Written by hand, not with Intl.NumberFormat or toLocaleString: Chromium loads ICU's number data on the first
 * Intl call of a page, 12-26 ms of main thread measured on the development host (50-100 ms on a 4x slower
 * phone), and every page formats numbers while it hydrates. What `String` writes in exponent form (beyond
 * 1e21, below 1e-6) and non-finite values are left to Intl.
 */
export function formatDecimal(value: number, maxFractionDigits: number): string {
  const shortest = String(Math.abs(value));
  if (!Number.isFinite(value) || shortest.includes('e')) {
    const text = new Intl.NumberFormat('en-US', { maximumFractionDigits: maxFractionDigits }).format(value);
    return text === '-0' ? '0' : text;
  }
  const [whole = '0', fraction = ''] = shortest.split('.');
  let digits = whole + fraction.slice(0, maxFractionDigits).padEnd(maxFractionDigits, '0');
  if ((fraction[maxFractionDigits] ?? '0') >= '5') digits = incrementDigits(digits);
  const wholeDigits = digits.slice(0, digits.length - maxFractionDigits) || '0';
  const decimals = digits.slice(digits.length - maxFractionDigits).replace(/0+$/, '');
  const sign = value < 0 && /[1-9]/.test(digits) ? '-' : '';
  const grouped = wholeDigits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${grouped}${decimals === '' ? '' : `.${decimals}`}`;
}

/** "0999" -> "1000", "999" -> "1000": one added to a string of decimal digits, however long. */
function incrementDigits(digits: string): string {
  let i = digits.length - 1;
  while (i >= 0 && digits[i] === '9') i -= 1;
  if (i < 0) return `1${'0'.repeat(digits.length)}`;
  return `${digits.slice(0, i)}${Number(digits[i]) + 1}${'0'.repeat(digits.length - i - 1)}`;
}

/** 30000 -> "30,000"; 12.345 -> "12.3": at most one decimal. */
export function formatNumber(value: number): string {
  return formatDecimal(value, 1);
}

/** "12,345" for counts (fractions kept to three decimals, e.g. a chart tick of 2.5); "—" when unknown. */
export function formatCount(value: number | null | undefined): string {
  return value === null || value === undefined ? MISSING : formatDecimal(value, 3);
}

/** 300 -> "300/s"; 2.25 -> "2.3/s": a rate in a sentence, at most one decimal. */
export function formatRate(perSec: number): string {
  return `${formatNumber(perSec)}/s`;
}

/** "4.3/s" below 10/s, "1,235/s" from there: a rate in a table or on an axis; "—" when not measured. */
export function formatRateRounded(perSec: number | null | undefined): string {
  if (perSec === null || perSec === undefined) return MISSING;
  return `${formatDecimal(perSec, perSec < 10 ? 1 : 0)}/s`;
}

/** 0.953 -> "95%". */
export function formatPercent(fraction: number): string {
  return `${Math.round(fraction * 100)}%`;
}

/** "1 consumer", "3 consumers". */
export function plural(count: number, noun: string): string {
  return `${formatNumber(count)} ${noun}${count === 1 ? '' : 's'}`;
}

/** "partition 2", "partitions 2 and 5", "partitions 1, 2 and 5". */
export function formatPartitionList(partitions: readonly number[]): string {
  if (partitions.length === 1) return `partition ${partitions[0]}`;
  const head = partitions.slice(0, -1).join(', ');
  return `partitions ${head} and ${partitions[partitions.length - 1]}`;
}

/**
 * A non-negative number of seconds: "45 s", "4 min 20 s", "5 min", "1 h 3 min", "2 d 5 h". Precision shrinks
 * as the duration grows (at most two units), and every unit boundary is computed after rounding, so 3,599.6 s
 * reads "1 h", never "60 min". Positive durations that round to 0 s read "< 1 s" so a real (tiny) lag is
 * never shown as none. Throws RangeError for NaN, infinities and negatives: "never" is the caller's word (it
 * holds null), not a duration.
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

/** formatDuration from milliseconds: "4 min 20 s"; "—" when unknown. */
export function formatDurationMs(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? MISSING : formatDuration(ms / 1000);
}

/** 800 -> "800 ms"; 1500 -> "1.5 s"; a minute and longer as formatDuration ("6 min 40 s"). */
export function formatMillis(ms: number): string {
  if (ms < 1000) return `${formatNumber(ms)} ms`;
  const seconds = Math.round(ms / 100) / 10;
  if (seconds < 60) return `${formatNumber(seconds)} s`;
  return formatDuration(ms / 1000);
}

/** Axis labels: "45s", "23m", "23m20s", "2h5m", "3d4h": short enough for a chart axis. */
export function formatDurationCompact(ms: number): string {
  const sec = Math.round(ms / 1000);
  if (sec < 60) return `${sec}s`;
  if (sec < 3600) return sec % 60 === 0 ? `${Math.floor(sec / 60)}m` : `${Math.floor(sec / 60)}m${sec % 60}s`;
  const min = Math.round(sec / 60);
  if (min < 24 * 60) return min % 60 === 0 ? `${Math.floor(min / 60)}h` : `${Math.floor(min / 60)}h${min % 60}m`;
  const hours = Math.round(min / 60);
  return hours % 24 === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${hours % 24}h`;
}

/** "12 s ago", "4 min ago", "2 h 30 min ago": how old something is at `nowMs`; never negative. */
export function formatAge(iso: string, nowMs: number): string {
  const seconds = Math.max(0, Math.round((nowMs - Date.parse(iso)) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min ago`;
}
