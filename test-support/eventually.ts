export interface EventuallyOptions {
  /** Errors of `probe` that no retry can cure: rethrown at once instead of polled through. Default: none. */
  rethrow?: (error: unknown) => boolean;
}

/** Polls `probe` until it returns a value other than undefined, or fails with `what` after `timeoutMs`. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 30_000,
  options: EventuallyOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      if (options.rethrow?.(error)) throw error;
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(
    `timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${String(lastError)})` : ''}`,
  );
}
