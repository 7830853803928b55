import { describe, expect, it } from 'vitest';
import { DEAD_LETTER_HEADERS } from '../../lib/dead-letters/dead-letter-record';
import { DLQ_HEADERS } from '../pipeline/dead-letter';

// The reader (lib) cannot import the writer (worker): this keeps the two header lists equal.
describe('dead-letter headers', () => {
  it('are read under the names the writer uses', () => {
    expect(DEAD_LETTER_HEADERS).toEqual(DLQ_HEADERS);
  });
});
