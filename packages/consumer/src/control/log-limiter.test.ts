import { describe, expect, it } from 'vitest';
import { ManualClock } from '../core/testing/fake-clock.js';
import { LogLimiter } from './log-limiter.js';

function recorder() {
  const lines: Array<{ level: string; obj: object; msg: string }> = [];
  const at = (level: string) => (obj: object, msg?: string) => lines.push({ level, obj, msg: msg ?? '' });
  return { lines, logger: { info: at('info'), warn: at('warn'), error: at('error') } };
}

describe('LogLimiter', () => {
  it('logs a kind at most once per interval and then says how many it left out', () => {
    const clock = new ManualClock(0);
    const { lines, logger } = recorder();
    const log = new LogLimiter(logger, clock, 1_000);
    log.warn('send', { n: 1 }, 'send failed');
    log.warn('send', { n: 2 }, 'send failed');
    log.error('other', { n: 3 }, 'other failed');
    clock.advance(999);
    log.warn('send', { n: 4 }, 'send failed');
    clock.advance(1);
    log.warn('send', { n: 5 }, 'send failed');
    expect(lines).toEqual([
      { level: 'warn', obj: { n: 1 }, msg: 'send failed' },
      { level: 'error', obj: { n: 3 }, msg: 'other failed' },
      { level: 'warn', obj: { n: 5, suppressed: 2 }, msg: 'send failed' },
    ]);
  });

  it('survives a logger that throws', () => {
    const log = new LogLimiter(
      {
        info: () => undefined,
        warn: () => {
          throw new Error('closed stream');
        },
        error: () => undefined,
      },
      new ManualClock(0),
    );
    expect(() => log.warn('k', {}, 'm')).not.toThrow();
  });
});
