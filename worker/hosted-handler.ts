import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readHandlerModule, type HandlerModule } from '@warden/consumer';

// WARDEN_HANDLER_MODULE: a team hands the worker its handler instead of running a service. The module is
// loaded once at start-up (TypeScript too: the worker runs under tsx); anything wrong with it stops the start
// with one message naming the module and every problem, before the worker connects to anything.

/** A handler module that cannot be hosted; the message names the module and the problems. */
export class HandlerModuleError extends Error {
  override readonly name = 'HandlerModuleError';
}

/** Loads and checks the module at `modulePath` (relative to `cwd`); throws HandlerModuleError. */
export async function loadHandlerModule(modulePath: string, cwd = process.cwd()): Promise<HandlerModule> {
  const resolved = path.resolve(cwd, modulePath);
  const named = `WARDEN_HANDLER_MODULE=${modulePath}`;
  if (!existsSync(resolved)) throw new HandlerModuleError(`${named}: no such file (${resolved})`);
  let exports: unknown;
  try {
    exports = await import(pathToFileURL(resolved).href);
  } catch (error) {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new HandlerModuleError(`${named}: importing the module failed: ${message}`);
  }
  const read = readHandlerModule(exports);
  if (!read.ok) throw new HandlerModuleError(`${named} is not a handler module: ${read.problems.join('; ')}`);
  return read.handler;
}
