import { describe, expect, it } from 'vitest';
import { defaultClassifyError, describeError } from './classify-error.js';

function named(name: string, message = ''): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

describe('defaultClassifyError', () => {
  it('trusts retriable === true', () => {
    expect(defaultClassifyError(Object.assign(new Error('whatever'), { retriable: true }))).toBe('transient');
  });

  it('recognises connection, timeout, leadership and rebalance failures', () => {
    expect(defaultClassifyError(Object.assign(new Error('connect failed'), { code: 'ECONNREFUSED' }))).toBe(
      'transient',
    );
    expect(defaultClassifyError(new Error('read ECONNRESET'))).toBe('transient');
    expect(defaultClassifyError(named('KafkaJSConnectionError', 'Connection error'))).toBe('transient');
    expect(defaultClassifyError(named('KafkaJSRequestTimeoutError'))).toBe('transient');
    expect(defaultClassifyError(new Error('Request timed out after 30000ms'))).toBe('transient');
    expect(
      defaultClassifyError(Object.assign(new Error('x'), { type: 'LEADER_NOT_AVAILABLE', retriable: false })),
    ).toBe('transient');
    expect(
      defaultClassifyError(
        Object.assign(new Error('The group is rebalancing, so a rejoin is needed'), { type: 'REBALANCE_IN_PROGRESS' }),
      ),
    ).toBe('transient');
    expect(defaultClassifyError('transient glitch')).toBe('transient');
  });

  it('follows cause and originalError links', () => {
    expect(
      defaultClassifyError(
        new Error('publish failed', { cause: Object.assign(new Error('x'), { code: 'ETIMEDOUT' }) }),
      ),
    ).toBe('transient');
    expect(
      defaultClassifyError(
        Object.assign(named('KafkaJSError', 'wrapped'), { originalError: named('KafkaJSConnectionError') }),
      ),
    ).toBe('transient');
  });

  it('calls everything else permanent, including programming errors and odd values', () => {
    expect(defaultClassifyError(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe('permanent');
    expect(defaultClassifyError(Object.assign(new Error('Message too large'), { retriable: false }))).toBe('permanent');
    expect(defaultClassifyError(null)).toBe('permanent');
    expect(defaultClassifyError(undefined)).toBe('permanent');
    expect(defaultClassifyError(42)).toBe('permanent');
  });

  it('terminates on cyclic cause chains', () => {
    const a = new Error('a') as Error & { cause?: unknown };
    const b = new Error('b', { cause: a });
    a.cause = b;
    expect(defaultClassifyError(a)).toBe('permanent');
  });
});

describe('describeError', () => {
  it('formats errors, strings and objects in one bounded line', () => {
    expect(describeError(new TypeError('bad'))).toBe('TypeError: bad');
    expect(describeError('plain')).toBe('plain');
    expect(describeError({ code: 1 })).toBe('{"code":1}');
    expect(describeError('x'.repeat(600)).length).toBe(500);
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(describeError(cyclic)).toBe('[object Object]');
  });
});
