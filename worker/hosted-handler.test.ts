import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HandlerModuleError, loadHandlerModule } from './hosted-handler';

const dir = mkdtempSync(path.join(tmpdir(), 'warden-handler-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function moduleFile(name: string, source: string): string {
  writeFileSync(path.join(dir, name), source);
  return name;
}

describe('loadHandlerModule', () => {
  it('loads an ES module and a CommonJS module.exports, relative to the directory given', async () => {
    const esm = moduleFile(
      'esm-handler.mjs',
      'export const admit = () => ({ ok: true, value: 1, orderingKey: null });\nexport async function handle() {}\nexport const ordering = "partition";\n',
    );
    const handler = await loadHandlerModule(esm, dir);
    expect(Object.keys(handler).sort()).toEqual(['admit', 'handle', 'ordering']);
    const cjs = moduleFile(
      'cjs-handler.cjs',
      'module.exports = { admit: () => ({ ok: true, value: 1, orderingKey: null }), handleBatch: async () => [] };\n',
    );
    expect(Object.keys(await loadHandlerModule(cjs, dir)).sort()).toEqual(['admit', 'handleBatch']);
  });

  it('refuses a missing file, a module that throws on import and a wrong shape, naming the module', async () => {
    await expect(loadHandlerModule('nowhere.mjs', dir)).rejects.toThrow(
      new HandlerModuleError(`WARDEN_HANDLER_MODULE=nowhere.mjs: no such file (${path.join(dir, 'nowhere.mjs')})`),
    );
    const throwing = moduleFile('throws.mjs', 'throw new TypeError("missing ORDERS_TABLE");\n');
    await expect(loadHandlerModule(throwing, dir)).rejects.toThrow(
      'WARDEN_HANDLER_MODULE=throws.mjs: importing the module failed: TypeError: missing ORDERS_TABLE',
    );
    const wrong = moduleFile('wrong.mjs', 'export const admit = 1;\nexport async function handle() {}\n');
    const error = await loadHandlerModule(wrong, dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HandlerModuleError);
    expect((error as Error).message).toBe(
      'WARDEN_HANDLER_MODULE=wrong.mjs is not a handler module: admit must be a function (got number)',
    );
  });
});
