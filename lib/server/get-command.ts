import type { Database } from '../db';
import { ZCommand, type TCommand, type TOperatorAction } from '../schemas/operator-actions';
import { commandStateOf } from '../schemas/values';
import { notFound } from './api-error';
import { operatorActionJson } from './operator-action-json';

/**
 * GET /api/commands/{id}: an operator action's progress: pending, applied or failed, with a message. A pending
 * one says whether a Warden worker has sent it to the cluster's command topic yet, and until when it waits.
 */
export async function getCommand(db: Database, id: string): Promise<TCommand> {
  const row = await db.operatorAction.findUnique({ where: { id: BigInt(id) } });
  if (!row) throw notFound(`command ${id} does not exist`);
  const action = operatorActionJson(row);
  const state = commandStateOf(action.status);
  const message = action.outcome ?? (state === 'pending' ? pendingMessage(action) : action.status);
  return ZCommand.parse({ ...action, state, message });
}

function pendingMessage(action: TOperatorAction): string {
  const partition = `${action.topic}-${action.partition}`;
  if (action.relayedAt === null) return 'waiting for a Warden worker to send it';
  const until = action.expiresAt === null ? '' : ` (it expires at ${action.expiresAt})`;
  return `sent; waiting for the instance that owns ${partition} to apply it${until}`;
}
