import { describe, expect, it } from 'vitest';
import { EMPTY_CLIENT_SETTINGS, parseClientSettings, resolveClientSettings } from './client-settings';
import { resolveResetPolicy, startingBacklog } from './starting-backlog';

describe('resolveResetPolicy', () => {
  it("knows Warden's worker, takes a configured policy, and otherwise says it is unknown", () => {
    const none = resolveClientSettings(EMPTY_CLIENT_SETTINGS, 'g');
    expect(resolveResetPolicy(true, none).policy).toBe('earliest');
    const configured = resolveClientSettings(parseClientSettings('{"/^g/":{"autoOffsetReset":"latest"}}'), 'g1');
    expect(resolveResetPolicy(false, configured)).toEqual({
      policy: 'latest',
      basis: 'auto.offset.reset latest (ADVISOR_CLIENT_SETTINGS "/^g/")',
    });
    expect(resolveResetPolicy(false, none)).toMatchObject({ policy: null, basis: /^auto\.offset\.reset unknown/ });
  });
});

describe('startingBacklog', () => {
  const uncommitted = { lag: null, logStartOffset: 400, logEndOffset: 1_000 };

  it('is the lag of a committed partition whatever the policy', () => {
    expect(startingBacklog({ ...uncommitted, lag: 7 }, null)).toEqual({ backlog: 7, basis: 'committed' });
    expect(startingBacklog({ ...uncommitted, lag: 0 }, 'earliest')).toEqual({ backlog: 0, basis: 'committed' });
  });

  it('is the log from its start under earliest (not from offset 0), nothing under latest, unknown otherwise', () => {
    expect(startingBacklog(uncommitted, 'earliest')).toEqual({ backlog: 600, basis: 'log-start' });
    expect(startingBacklog(uncommitted, 'latest')).toEqual({ backlog: 0, basis: 'log-end' });
    expect(startingBacklog(uncommitted, null)).toEqual({ backlog: null, basis: 'unknown' });
  });

  it('rejects offsets that cannot be', () => {
    expect(() => startingBacklog({ lag: null, logStartOffset: 5, logEndOffset: 4 }, 'earliest')).toThrow(
      /log end 4 is below the log start 5/,
    );
    expect(() => startingBacklog({ lag: -1, logStartOffset: 0, logEndOffset: 4 }, null)).toThrow(/lag must be >= 0/);
  });
});
