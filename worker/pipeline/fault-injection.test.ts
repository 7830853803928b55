import { describe, expect, it } from 'vitest';
import { classifyPipelineError } from './classify-error';
import { createFaultInjector, InjectedTransientError } from './fault-injection';

describe('createFaultInjector', () => {
  it('is absent when both knobs are 0', () => {
    expect(createFaultInjector({ rate: 0, maxLatencyMs: 0 })).toBeUndefined();
  });

  it('fails with a transient error when the draw is below the rate', async () => {
    const draws = [0.05, 0.5];
    const inject = createFaultInjector({ rate: 0.1, maxLatencyMs: 0, random: () => draws.shift()! })!;
    const error = await inject().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InjectedTransientError);
    expect(classifyPipelineError(error)).toBe('transient');
    await expect(inject()).resolves.toBeUndefined();
  });
});
