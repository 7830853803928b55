import { describe, expect, it } from 'vitest';
import { CoreEvents } from './core-events.js';
import type { CoreEvent } from './types.js';

const fatal: CoreEvent = { type: 'fatal', reason: 'seek failed' };

describe('CoreEvents', () => {
  it('hands each event to the observer the host holds at that moment', () => {
    const seen: string[] = [];
    const host: { onEvent?: (event: CoreEvent) => void } = {};
    const events = new CoreEvents(host);
    events.emit(fatal);
    host.onEvent = (event) => seen.push(event.type);
    events.emit(fatal);
    expect(seen).toEqual(['fatal']);
  });

  it('swallows an observer that throws', () => {
    const events = new CoreEvents({
      onEvent: () => {
        throw new Error('observer bug');
      },
    });
    expect(() => events.emit(fatal)).not.toThrow();
  });
});
