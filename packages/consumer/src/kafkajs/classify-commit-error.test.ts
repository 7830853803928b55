import { describe, expect, it } from 'vitest';
import { classifyCommitError } from './classify-commit-error.js';

const kafkaError = (name: string, fields: object = {}, cause?: unknown) =>
  Object.assign(new Error(name), { name, ...fields }, cause ? { cause } : {});

describe('classifyCommitError', () => {
  it.each([
    [
      'ILLEGAL_GENERATION wrapped in a non-retriable error',
      kafkaError(
        'KafkaJSNonRetriableError',
        {},
        kafkaError('KafkaJSProtocolError', { type: 'ILLEGAL_GENERATION', retriable: false }),
      ),
    ],
    ['REBALANCE_IN_PROGRESS', kafkaError('KafkaJSProtocolError', { type: 'REBALANCE_IN_PROGRESS', retriable: false })],
    ['UNKNOWN_MEMBER_ID', kafkaError('KafkaJSProtocolError', { type: 'UNKNOWN_MEMBER_ID' })],
    ['a lost connection', kafkaError('KafkaJSConnectionError')],
    ['retries exhausted', kafkaError('KafkaJSNumberOfRetriesExceeded')],
    [
      'no consumer between crash and restart',
      Object.assign(new Error('no running consumer to commit with'), { retriable: true }),
    ],
  ])('%s is transient', (_name, error) => {
    expect(classifyCommitError(error)).toBe('transient');
  });

  it.each([
    [
      'group authorization failure',
      kafkaError('KafkaJSProtocolError', { type: 'GROUP_AUTHORIZATION_FAILED', retriable: false }),
    ],
    ['metadata too large', kafkaError('KafkaJSProtocolError', { type: 'OFFSET_METADATA_TOO_LARGE', retriable: false })],
    ['an unknown error', new Error('boom')],
  ])('%s is permanent', (_name, error) => {
    expect(classifyCommitError(error)).toBe('permanent');
  });
});
