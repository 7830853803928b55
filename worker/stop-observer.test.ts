import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stopObserver } from './stop-observer';

describe('stopObserver', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const logger = () => ({ warn: vi.fn() });

  it('waits for an observer that stops in time, and logs nothing', async () => {
    const log = logger();
    const stopping = stopObserver(
      'sampler',
      { stop: () => new Promise<void>((resolve) => setTimeout(resolve, 4_000)) },
      5_000,
      log,
    );
    await vi.advanceTimersByTimeAsync(4_000);
    expect(await stopping).toBe('stopped');
    expect(log.warn).not.toHaveBeenCalled();
  });

  it('goes on without an observer that never stops, after the limit, and says which', async () => {
    const log = logger();
    let settled = false;
    const stopping = stopObserver('offsets-topic reader', { stop: () => new Promise<void>(() => {}) }, 5_000, log);
    void stopping.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await stopping).toBe('late');
    expect(log.warn).toHaveBeenCalledWith({ part: 'offsets-topic reader', limitMs: 5_000 }, expect.any(String));
  });

  it('goes on after an observer whose stop rejects, logging the error', async () => {
    const log = logger();
    const failure = new Error('connection terminated');
    expect(await stopObserver('alerts', { stop: () => Promise.reject(failure) }, 5_000, log)).toBe('failed');
    expect(log.warn).toHaveBeenCalledWith({ err: failure, part: 'alerts' }, expect.any(String));
    expect(await stopObserver('commands', null, 5_000, log)).toBe('absent');
  });
});
