import { describe, expect, it } from 'vitest';
import { resolveControlSettings } from './control-options.js';

const context = { groupId: 'orders', host: 'box', pid: 42 };

describe('resolveControlSettings', () => {
  it('applies the defaults', () => {
    expect(resolveControlSettings({ topicPrefix: 'warden-control' }, context)).toEqual({
      topics: { state: 'warden-control.state', commands: 'warden-control.commands' },
      topicPrefix: 'warden-control',
      clientId: 'orders',
      instanceId: 'orders@box/42',
      host: 'box',
      pid: 42,
      stateIntervalMs: 5_000,
      commandKey: null,
      createTopics: true,
      deadLetterName: 'the dead-letter port',
    });
  });

  it('keeps what the host sets', () => {
    const settings = resolveControlSettings(
      { topicPrefix: 'ctl', clientId: 'svc', stateIntervalMs: 250, commandKey: 'k', createTopics: false },
      context,
    );
    expect(settings).toMatchObject({
      clientId: 'svc',
      instanceId: 'svc@box/42',
      stateIntervalMs: 250,
      commandKey: 'k',
    });
    expect(settings.createTopics).toBe(false);
    expect(resolveControlSettings({ topicPrefix: 'ctl', instanceId: 'pod-7' }, context).instanceId).toBe('pod-7');
  });

  it.each([
    [{ topicPrefix: '' }, /control.topicPrefix must be a topic name/],
    [{ topicPrefix: 'a b' }, /control.topicPrefix must be a topic name/],
    [{ topicPrefix: 'x'.repeat(245) }, /control.topicPrefix is too long/],
    [{ topicPrefix: 'c', clientId: 'x'.repeat(513) }, /control.clientId must be at most 512/],
    [{ topicPrefix: 'c', instanceId: '' }, /control.instanceId must be 1 to 512 characters$/],
    [{ topicPrefix: 'c', clientId: 'x'.repeat(510) }, /the default one is too long/],
    [{ topicPrefix: 'c', stateIntervalMs: 99 }, /control.stateIntervalMs must be an integer of at least 100, got 99/],
    [{ topicPrefix: 'c', stateIntervalMs: 1.5 }, /control.stateIntervalMs/],
    [{ topicPrefix: 'c', commandKey: '' }, /control.commandKey must not be empty/],
  ])('refuses %j', (options, message) => {
    expect(() => resolveControlSettings(options, context)).toThrow(message);
  });

  it('refuses a group id the protocol cannot carry', () => {
    expect(() => resolveControlSettings({ topicPrefix: 'c' }, { ...context, groupId: 'g'.repeat(513) })).toThrow(
      RangeError,
    );
  });
});
