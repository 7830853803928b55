import type { Database } from '../../db';
import type { TRedriveControl, TRedriveJob } from '../../schemas/dead-letters';
import { ApiError, notFound } from '../api-error';
import { redriveJobJson } from './redrive-job-json';

/** Which statuses each control moves a job from, and to. */
const TRANSITIONS: Record<TRedriveControl['action'], { from: string[]; to: string }> = {
  pause: { from: ['pending', 'running'], to: 'paused' },
  resume: { from: ['paused'], to: 'pending' },
  cancel: { from: ['pending', 'running', 'paused'], to: 'cancelled' },
};

/**
 * POST /api/dead-letters/redrives/{id}: pause, resume or cancel a job (409 from a status the control does not
 * apply to). The worker running it sees the new status before its next batch, so at most the batch it is
 * sending completes after a pause or cancel. The control and its reason are appended to the job's outcome.
 */
export async function controlRedrive(
  db: Database,
  id: bigint,
  control: TRedriveControl,
  by: string,
  now = new Date(),
): Promise<TRedriveJob> {
  const transition = TRANSITIONS[control.action];
  return db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<Array<{ status: string; outcome: string | null }>>`
      SELECT status, outcome FROM redrive_job WHERE id = ${id} FOR UPDATE`;
    if (!row) throw notFound(`redrive #${id} does not exist`);
    if (!transition.from.includes(row.status)) {
      throw new ApiError(409, `redrive #${id} is ${row.status}: it cannot be ${control.action}d`);
    }
    const note = `${control.action}d by ${by} at ${now.toISOString()}: ${control.reason}`;
    const updated = await tx.redriveJob.update({
      where: { id },
      data: {
        status: transition.to,
        outcome: row.outcome ? `${row.outcome}; ${note}` : note,
        updatedAt: now,
        ...(transition.to === 'cancelled' ? { completedAt: now } : {}),
      },
    });
    return redriveJobJson(updated);
  });
}
