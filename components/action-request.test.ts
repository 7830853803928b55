import { describe, expect, it } from 'vitest';
import { operatorActionRequest, type ActionForm } from './action-request';

const form = (change: Partial<ActionForm>): ActionForm => ({
  reason: 'the schema is fixed',
  seekBy: 'offset',
  offset: '',
  time: '',
  ...change,
});
const log = { logStartOffset: '100', logEndOffset: '200' };

describe('operatorActionRequest', () => {
  it('asks for a resume or a skip with the reason trimmed, and nothing else', () => {
    expect(operatorActionRequest('resume', form({ reason: ' fixed ', offset: '150' }), log)).toEqual({
      request: { action: 'resume', reason: 'fixed' },
    });
    expect(operatorActionRequest('skip', form({}), log).request).toEqual({
      action: 'skip',
      reason: 'the schema is fixed',
    });
  });

  it('refuses a missing reason, naming the field', () => {
    expect(operatorActionRequest('skip', form({ reason: '  ' }), log).problem?.field).toBe('reason');
  });

  it('seeks to a whole offset inside the log, its bounds included', () => {
    for (const offset of ['', '-1', '1.5', 'x', '99', '201'])
      expect(operatorActionRequest('seek', form({ offset }), log).problem?.field).toBe('offset');
    for (const offset of ['100', '200'])
      expect(operatorActionRequest('seek', form({ offset }), log).request).toEqual({
        action: 'seek',
        reason: 'the schema is fixed',
        offset,
      });
    // Bounds unknown: the server checks the offset against the log.
    expect(
      operatorActionRequest('seek', form({ offset: '5' }), { logStartOffset: null, logEndOffset: null }).request
        ?.offset,
    ).toBe('5');
  });

  it('seeks to a local time as the instant it names, and refuses no time', () => {
    expect(operatorActionRequest('seek', form({ seekBy: 'time' }), log).problem?.field).toBe('timestamp');
    const time = '2026-12-07T06:30';
    expect(operatorActionRequest('seek', form({ seekBy: 'time', time }), log).request).toEqual({
      action: 'seek',
      reason: 'the schema is fixed',
      timestamp: new Date(time).toISOString(),
    });
  });
});
