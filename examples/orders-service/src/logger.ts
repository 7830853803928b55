import type { ConsumerLogger } from '@warden/consumer';

// One JSON object per line on stdout (warnings and errors on stderr): what log collectors read.

export function jsonLogger(service: string): ConsumerLogger {
  const write = (level: 'info' | 'warn' | 'error', fields: object, message?: string) => {
    const line = JSON.stringify({ time: new Date().toISOString(), level, service, msg: message, ...fields });
    (level === 'info' ? process.stdout : process.stderr).write(`${line}\n`);
  };
  return {
    info: (fields, message) => write('info', fields, message),
    warn: (fields, message) => write('warn', fields, message),
    error: (fields, message) => write('error', fields, message),
  };
}

/** An error as log fields (its message and, for unexpected ones, the stack). */
export function errorFields(error: unknown): { error: string; stack?: string } {
  return error instanceof Error ? { error: error.message, stack: error.stack } : { error: String(error) };
}
