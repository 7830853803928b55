import pino from 'pino';

export type Logger = pino.Logger;

/** JSON lines on stdout. Callers log record coordinates and error classes, never payloads or secrets. */
export function createLogger(level: string, name = 'warden-worker'): Logger {
  return pino({ name, level, base: { pid: process.pid } });
}
