import { describe, expect, it } from 'vitest';
import { offsetResetRequest, type OffsetResetForm } from './offset-reset-request';

const form = (change: Partial<OffsetResetForm>): OffsetResetForm => ({
  topic: 'orders',
  scope: 'all',
  to: 'earliest',
  offset: '',
  time: '',
  reason: 'replay after the fix',
  ...change,
});

describe('offsetResetRequest', () => {
  it('asks for every partition of the topic, or one, with the reason trimmed', () => {
    expect(offsetResetRequest(form({ reason: '  replay  ' }))).toEqual({
      request: { topic: 'orders', to: 'earliest', reason: 'replay' },
    });
    expect(offsetResetRequest(form({ scope: '3', to: 'latest' }))).toEqual({
      request: { topic: 'orders', to: 'latest', reason: 'replay after the fix', partition: 3 },
    });
  });

  it('refuses a missing reason, naming the field', () => {
    expect(offsetResetRequest(form({ reason: '   ' })).problem?.field).toBe('reason');
  });

  it('takes an explicit offset for one partition only, and only a whole non-negative one', () => {
    expect(offsetResetRequest(form({ to: 'offset', offset: '42' })).problem?.field).toBe('partition');
    for (const offset of ['', '-1', '1.5', '12345678901234567890', 'x'])
      expect(offsetResetRequest(form({ to: 'offset', scope: '0', offset })).problem?.field).toBe('offset');
    expect(offsetResetRequest(form({ to: 'offset', scope: '0', offset: '42' })).request).toEqual({
      topic: 'orders',
      to: 'offset',
      reason: 'replay after the fix',
      partition: 0,
      offset: '42',
    });
  });

  it('sends a local time as the instant it names, and refuses no time', () => {
    expect(offsetResetRequest(form({ to: 'timestamp' })).problem?.field).toBe('timestamp');
    const time = '2026-12-07T06:30:15';
    expect(offsetResetRequest(form({ to: 'timestamp', time })).request?.timestamp).toBe(new Date(time).toISOString());
  });
});
