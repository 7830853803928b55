import type { TActionRequest } from '@/lib/schemas/operator-actions';

/** The action dialog's form as typed: a seek goes to an offset or to a datetime-local time (the viewer's). */
export interface ActionForm {
  reason: string;
  seekBy: 'offset' | 'time';
  offset: string;
  time: string;
}

/** What the form is missing or has wrong, naming the field as the API would. */
export interface ActionProblem {
  message: string;
  field: 'reason' | 'offset' | 'timestamp';
}

/**
 * The request a Resume, Skip or Seek asks for, or the first problem found: a reason is required, and a seek needs
 * a whole offset inside the partition's log (when its bounds are known) or a date and time. The server checks it
 * all again.
 */
export function operatorActionRequest(
  action: TActionRequest['action'],
  form: ActionForm,
  log: { logStartOffset: string | null; logEndOffset: string | null },
): { request: TActionRequest; problem?: undefined } | { request?: undefined; problem: ActionProblem } {
  if (form.reason.trim() === '')
    return { problem: { message: 'reason: is required: say why, for the audit log', field: 'reason' } };
  const request: TActionRequest = { action, reason: form.reason.trim() };
  if (action !== 'seek') return { request };
  if (form.seekBy === 'offset') {
    if (!/^\d+$/.test(form.offset))
      return { problem: { message: 'offset: must be a whole, non-negative offset', field: 'offset' } };
    const start = log.logStartOffset;
    const end = log.logEndOffset;
    if (start !== null && end !== null && (BigInt(form.offset) < BigInt(start) || BigInt(form.offset) > BigInt(end)))
      return {
        problem: { message: `offset: must be between the log start ${start} and the log end ${end}`, field: 'offset' },
      };
    return { request: { ...request, offset: form.offset } };
  }
  const ms = Date.parse(form.time);
  if (Number.isNaN(ms)) return { problem: { message: 'timestamp: pick a date and time', field: 'timestamp' } };
  return { request: { ...request, timestamp: new Date(ms).toISOString() } };
}
