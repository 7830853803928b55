import type { TOffsetResetRequest, TResetTarget } from '@/lib/schemas/offset-reset';

/** The offset reset form as typed: the partition scope is 'all' or a partition's number. */
export interface OffsetResetForm {
  topic: string;
  scope: string;
  to: TResetTarget;
  /** The explicit offset (to: 'offset'). */
  offset: string;
  /** A datetime-local value, the viewer's local time (to: 'timestamp'). */
  time: string;
  reason: string;
}

/** What the form is missing or has wrong, naming the field, as the API would name it. */
export interface OffsetResetProblem {
  message: string;
  field: 'reason' | 'partition' | 'offset' | 'timestamp';
}

/**
 * The request the form asks for, or the first problem found: a reason is required, an explicit offset needs one
 * partition and a whole non-negative offset, a time must be a date and time. The server checks it all again.
 */
export function offsetResetRequest(
  form: OffsetResetForm,
): { request: TOffsetResetRequest; problem?: undefined } | { request?: undefined; problem: OffsetResetProblem } {
  if (form.reason.trim() === '')
    return { problem: { message: 'reason: is required: say why, for the audit log', field: 'reason' } };
  const partition = form.scope === 'all' ? null : Number(form.scope);
  const request: TOffsetResetRequest = {
    topic: form.topic,
    to: form.to,
    reason: form.reason.trim(),
    ...(partition === null ? {} : { partition }),
  };
  if (form.to === 'offset') {
    if (partition === null)
      return {
        problem: { message: 'partition: pick one partition to reset to an explicit offset', field: 'partition' },
      };
    if (!/^\d{1,19}$/.test(form.offset))
      return { problem: { message: 'offset: must be a whole, non-negative offset', field: 'offset' } };
    request.offset = form.offset;
  }
  if (form.to === 'timestamp') {
    const ms = Date.parse(form.time);
    if (Number.isNaN(ms)) return { problem: { message: 'timestamp: pick a date and time', field: 'timestamp' } };
    request.timestamp = new Date(ms).toISOString();
  }
  return { request };
}
