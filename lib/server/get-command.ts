import type { Database } from '../db';
import { ZCommand, type TCommand } from '../schemas/operator-actions';
import { commandStateOf } from '../schemas/values';
import { notFound } from './api-error';
import { operatorActionJson } from './operator-action-json';

/** GET /api/commands/{id}: an operator action's progress: pending, applied or failed, with a message. */
export async function getCommand(db: Database, id: string): Promise<TCommand> {
  const row = await db.operatorAction.findUnique({ where: { id: BigInt(id) } });
  if (!row) throw notFound(`command ${id} does not exist`);
  const action = operatorActionJson(row);
  const state = commandStateOf(action.status);
  const message =
    action.outcome ??
    (state === 'pending'
      ? `waiting for the worker that owns ${action.topic}-${action.partition} to apply it`
      : action.status);
  return ZCommand.parse({ ...action, state, message });
}
