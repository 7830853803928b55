import { describe, expect, it } from 'vitest';
import { isFencingError, redriveTransactionalId } from './redrive-transport';

describe('isFencingError', () => {
  it('knows the fencing errors, also wrapped, and nothing else', () => {
    expect(isFencingError({ type: 'INVALID_PRODUCER_EPOCH' })).toBe(true);
    expect(isFencingError({ type: 'PRODUCER_FENCED' })).toBe(true);
    expect(isFencingError(Object.assign(new Error('retries exceeded'), { cause: { type: 'PRODUCER_FENCED' } }))).toBe(
      true,
    );
    expect(isFencingError({ originalError: { type: 'INVALID_PRODUCER_ID_MAPPING' } })).toBe(true);
    expect(isFencingError({ type: 'CONCURRENT_TRANSACTIONS' })).toBe(false);
    expect(isFencingError(new Error('INVALID_PRODUCER_EPOCH'))).toBe(false);
    expect(isFencingError(null)).toBe(false);
  });
});

describe('redriveTransactionalId', () => {
  it('names a job by its cluster and id', () => {
    expect(redriveTransactionalId('default', 42n)).toBe('warden-redrive-default-42');
  });
});
