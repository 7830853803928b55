/** A transient error as the pipeline's classifier sees it (a reset connection). */
export class InjectedTransientError extends Error {
  readonly code = 'ECONNRESET';
  constructor() {
    super('injected transient failure (WARDEN_FAULT_TRANSIENT_RATE)');
    this.name = 'InjectedTransientError';
  }
}

/**
 * Fault injection for verification runs: before a store write, fail transiently with probability `rate`
 * and wait up to `maxLatencyMs`. Both 0 (the default) make it a no-op.
 */
export function createFaultInjector(options: { rate: number; maxLatencyMs: number; random?: () => number }) {
  const random = options.random ?? Math.random;
  if (options.rate <= 0 && options.maxLatencyMs <= 0) return undefined;
  return async (): Promise<void> => {
    if (options.maxLatencyMs > 0) await new Promise((resolve) => setTimeout(resolve, random() * options.maxLatencyMs));
    if (random() < options.rate) throw new InjectedTransientError();
  };
}
