import { describe, expect, it } from 'vitest';
import { defineHandler, readHandlerModule } from './handler-module.js';

const admit = () => ({ ok: true as const, value: 1, orderingKey: null });
const handle = async () => undefined;

describe('readHandlerModule', () => {
  it('reads named exports, and a default export object before them (a CommonJS module.exports arrives there)', () => {
    const named = readHandlerModule({ admit, handle, ordering: 'partition' });
    expect(named).toEqual({ ok: true, handler: { admit, handle, ordering: 'partition' } });
    const fromDefault = readHandlerModule({
      default: defineHandler({ admit, handleBatch: async () => [], batchSize: 50 }),
      __esModule: true,
      'module.exports': {},
    });
    expect(fromDefault.ok && Object.keys(fromDefault.handler).sort()).toEqual(['admit', 'batchSize', 'handleBatch']);
  });

  it('names every problem at once: admit, the handler, unknown exports and policy values the core refuses', () => {
    const read = readHandlerModule({
      admit: 'yes',
      hanlde: handle,
      ordering: 'by-key',
      maxInFlight: 0,
      classifyError: 42,
    });
    expect(read.ok).toBe(false);
    const problems = read.ok ? [] : read.problems;
    expect(problems).toEqual([
      'admit must be a function (got string)',
      'classifyError must be a function (got number)',
      'export exactly one of handle and handleBatch (found neither)',
      expect.stringMatching(/^unknown export "hanlde" \(a handler module exports admit, handle, handleBatch/),
      'unknown ordering by-key',
      'maxInFlight must be a positive integer, got 0',
    ]);
  });

  it('refuses both handlers, an empty module and a module that is not an object', () => {
    const both = readHandlerModule({ admit, handle, handleBatch: async () => [] });
    expect(both).toEqual({ ok: false, problems: ['export exactly one of handle and handleBatch (found both)'] });
    expect(readHandlerModule({})).toEqual({
      ok: false,
      problems: [
        'admit must be a function (got nothing)',
        'export exactly one of handle and handleBatch (found neither)',
      ],
    });
    expect(readHandlerModule(undefined)).toEqual({ ok: false, problems: ['the module exports nothing'] });
  });

  it("keeps the host tunables out of a module: the commit metadata budget is the host's", () => {
    const read = readHandlerModule({ admit, handle, metadataMaxBytes: 10 });
    expect(read.ok ? [] : read.problems).toEqual([expect.stringContaining('unknown export "metadataMaxBytes"')]);
  });
});
