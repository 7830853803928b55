// Axis ticks as Grafana places them: at round times (every 10 s, 1 min, 5 min, 1 h, midnight…) in the zone
// the viewer reads, and at round values (1, 2 or 5 × 10ⁿ; durations at 1 s, 30 s, 1 min, 5 min, 1 h…).
// Pure: the zone is an argument, never read from the environment.

export type DisplayZone = 'utc' | 'local';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Steps a time axis may use, smallest first: each divides the next round unit (minute, hour, day). */
const TIME_STEPS_MS = [
  SECOND,
  2 * SECOND,
  5 * SECOND,
  10 * SECOND,
  15 * SECOND,
  30 * SECOND,
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
];

/** Milliseconds to add to a UTC instant to read the wall clock of `zone` at that instant. */
function zoneOffsetMs(ms: number, zone: DisplayZone): number {
  return zone === 'utc' ? 0 : -new Date(ms).getTimezoneOffset() * MINUTE;
}

/** The smallest listed time step that gives at most `maxTicks` ticks over [fromMs, toMs]. */
export function timeStepFor(fromMs: number, toMs: number, maxTicks: number): number {
  const span = Math.max(1, toMs - fromMs);
  return TIME_STEPS_MS.find((s) => span / s <= maxTicks) ?? TIME_STEPS_MS[TIME_STEPS_MS.length - 1]!;
}

/**
 * Ticks inside [fromMs, toMs] at whole multiples of a round step on the wall clock of `zone` (a 1 h step lands
 * on 14:00, 15:00 local time, also in zones offset by half an hour; a day step on midnight).
 */
export function niceTimeTicks(fromMs: number, toMs: number, maxTicks: number, zone: DisplayZone): number[] {
  if (!(toMs > fromMs)) return [];
  const step = timeStepFor(fromMs, toMs, maxTicks);
  const offset = zoneOffsetMs(fromMs, zone);
  const ticks: number[] = [];
  for (let wall = Math.ceil((fromMs + offset) / step) * step; wall - offset <= toMs; wall += step) {
    // The offset of each tick's own instant, so a tick after a daylight-saving change still lands on the hour.
    const instant = wall - zoneOffsetMs(wall - offset, zone);
    if (instant >= fromMs && instant <= toMs) ticks.push(instant);
  }
  return ticks;
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hours: number;
  minutes: number;
  seconds: number;
}

function wallClock(ms: number, zone: DisplayZone): WallClock {
  const d = new Date(ms);
  return zone === 'utc'
    ? {
        year: d.getUTCFullYear(),
        month: d.getUTCMonth() + 1,
        day: d.getUTCDate(),
        hours: d.getUTCHours(),
        minutes: d.getUTCMinutes(),
        seconds: d.getUTCSeconds(),
      }
    : {
        year: d.getFullYear(),
        month: d.getMonth() + 1,
        day: d.getDate(),
        hours: d.getHours(),
        minutes: d.getMinutes(),
        seconds: d.getSeconds(),
      };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** "2026-11-29 14:03:07": the one date-time format of the dashboard (24 h, sortable), in `zone`. */
export function formatWallDateTime(ms: number, zone: DisplayZone): string {
  const w = wallClock(ms, zone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)} ${pad(w.hours)}:${pad(w.minutes)}:${pad(w.seconds)}`;
}

/** "14:03:07": a time of day in `zone` (24 h). */
export function formatWallClock(ms: number, zone: DisplayZone): string {
  const w = wallClock(ms, zone);
  return `${pad(w.hours)}:${pad(w.minutes)}:${pad(w.seconds)}`;
}

/**
 * A tick label as short as its step allows: "14:03:10" for steps under a minute, "14:05" under a day, and
 * the date "11-29" on midnight or for steps of a day or more.
 */
export function formatTimeTick(ms: number, stepMs: number, zone: DisplayZone): string {
  const w = wallClock(ms, zone);
  const hm = `${pad(w.hours)}:${pad(w.minutes)}`;
  if (stepMs < MINUTE) return `${hm}:${pad(w.seconds)}`;
  const midnight = w.hours === 0 && w.minutes === 0;
  return stepMs >= DAY || midnight ? `${pad(w.month)}-${pad(w.day)}` : hm;
}

// Made on first use and kept: building an Intl.DateTimeFormat costs milliseconds (ICU's zone data), and the
// charts name the zone on every tooltip and caption.
let localZoneNames: Intl.DateTimeFormat | undefined;

/** "UTC" or the viewer's zone as the browser names it ("CET", "GMT+5:30"), for axis captions. */
export function zoneLabel(zone: DisplayZone, atMs: number): string {
  if (zone === 'utc') return 'UTC';
  localZoneNames ??= new Intl.DateTimeFormat('en-GB', { timeZoneName: 'short' });
  const part = localZoneNames.formatToParts(new Date(atMs)).find((p) => p.type === 'timeZoneName');
  return part?.value ?? 'local time';
}

/** Round value ticks from 0 (or the minimum, when negative) to at least `max`: steps of 1, 2 or 5 × 10ⁿ. */
export function niceValueTicks(max: number, maxTicks = 5): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / Math.max(1, maxTicks - 1);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw)!;
  return ticksUpTo(max, step);
}

/** Duration steps: the time steps up to a day (a lag axis has no use for midnights). */
const DURATION_STEPS_MS = TIME_STEPS_MS.filter((s) => s <= DAY);

/** Duration ticks (ms) from 0 to at least `maxMs` at round durations: 30 s, 1 min, 5 min, 1 h…; ms below 1 s. */
export function niceDurationTicks(maxMs: number, maxTicks = 5): number[] {
  if (!(maxMs > 0)) return [0, SECOND];
  const raw = maxMs / Math.max(1, maxTicks - 1);
  if (raw < SECOND) return niceValueTicks(maxMs, maxTicks);
  const step = DURATION_STEPS_MS.find((s) => s >= raw) ?? Math.ceil(raw / DAY) * DAY;
  return ticksUpTo(maxMs, step);
}

function ticksUpTo(max: number, step: number): number[] {
  const ticks: number[] = [];
  const count = Math.ceil(max / step - 1e-9);
  for (let i = 0; i <= count; i++) ticks.push(Number((i * step).toPrecision(12)));
  return ticks;
}
