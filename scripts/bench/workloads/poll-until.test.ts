import { describe, expect, it } from 'vitest';
import { pollUntil } from './poll-until';

describe('pollUntil', () => {
  it('polls until the probe answers, and returns the answer', async () => {
    let calls = 0;
    const value = await pollUntil('the third call', async () => (++calls === 3 ? 'held' : undefined), {
      workload: 'probe',
      pollMs: 1,
    });
    expect(value).toBe('held');
    expect(calls).toBe(3);
  });

  it('fails after the timeout naming the workload, the step and the watched process output', async () => {
    await expect(
      pollUntil('the hold at offset 0', async () => undefined, {
        workload: 'service action round trip',
        pollMs: 1,
        timeoutMs: 20,
        watched: { exitedOutput: () => null, lastOutput: () => 'joined the group' },
      }),
    ).rejects.toThrow(
      "service action round trip: the hold at offset 0 did not happen within 20 ms; the service's last output:\njoined the group",
    );
    await expect(
      pollUntil('a step', async () => undefined, { workload: 'action round trip', pollMs: 1, timeoutMs: 20 }),
    ).rejects.toThrow(/^action round trip: a step did not happen within 20 ms$/);
  });

  it('fails at once when the watched process exited, with its output', async () => {
    let calls = 0;
    await expect(
      pollUntil(
        'a step',
        async () => {
          calls++;
          return undefined;
        },
        {
          workload: 'service action round trip',
          timeoutMs: 60_000,
          watched: { exitedOutput: () => 'fatal: no broker', lastOutput: () => 'fatal: no broker' },
        },
      ),
    ).rejects.toThrow('service action round trip: the service exited while waiting for a step:\nfatal: no broker');
    expect(calls).toBe(1);
  });

  it("passes the probe's own error on at once: a step that can no longer happen", async () => {
    let calls = 0;
    const failed = new Error('skip #3 ended failed');
    await expect(
      pollUntil(
        'a step',
        async () => {
          calls++;
          throw failed;
        },
        { workload: 'probe', timeoutMs: 60_000 },
      ),
    ).rejects.toBe(failed);
    expect(calls).toBe(1);
  });
});
