import { describe, expect, it } from 'vitest';
import { abortCall, RecordCall, type RecordEntry } from './record-entry.js';

const newCall = () => new RecordCall({} as RecordEntry<unknown>, 'handle', true, 0, 1);
const callSignal = (call: RecordCall<unknown>) => call.signal;

describe('lazy abort signals of record calls', () => {
  it('creates no controller until the signal is read, and aborts one that exists', () => {
    const call = newCall();
    expect(call.controller).toBeNull();
    const signal = callSignal(call);
    expect(callSignal(call)).toBe(signal);
    expect(signal.aborted).toBe(false);
    const reason = new Error('revoked');
    abortCall(call, reason);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);
  });

  it('a signal first read after the abort starts aborted with the first reason', () => {
    const call = newCall();
    const first = new Error('drain deadline passed');
    abortCall(call, first);
    abortCall(call, new Error('later'));
    expect(call.controller).toBeNull();
    expect(callSignal(call).aborted).toBe(true);
    expect(callSignal(call).reason).toBe(first);
  });
});
