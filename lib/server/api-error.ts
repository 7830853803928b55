import { type z } from 'zod';
import type { TApiError } from '../schemas/common';

/** An expected refusal with its HTTP status; its message is shown to the user as is. */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 429 | 503,
    message: string,
    readonly field?: string,
    /** Extra response headers, e.g. Retry-After on 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const notFound = (message: string) => new ApiError(404, message);

/** The first issue of a failed parse as one sentence naming the field: "offset: must be a whole, non-negative offset". */
export function describeZodError(error: z.ZodError): TApiError {
  const issue = error.issues[0];
  if (!issue) return { error: 'invalid input' };
  if (issue.code === 'unrecognized_keys') {
    const [first] = issue.keys;
    return {
      error: `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`,
      ...(first ? { field: first } : {}),
    };
  }
  const field = issue.path.map(String).join('.');
  return field ? { error: `${field}: ${issue.message}`, field } : { error: issue.message };
}
