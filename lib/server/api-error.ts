import type { z } from 'zod';
import type { TApiError } from '../schemas/common';

/**
 * The one shape of every API error body (route handlers through errorResponse, and proxy.ts): a sentence, and
 * the offending input field, `null` where none applies (401, 403, 404, 409, 429, 500 and most 503s).
 */
export function errorBody(message: string, field: string | null = null): TApiError {
  return { error: message, field };
}

/** An expected refusal with its HTTP status; its message is shown to the user as is. */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 429 | 503,
    message: string,
    readonly field: string | null = null,
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
  if (!issue) return errorBody('invalid input');
  if (issue.code === 'unrecognized_keys') {
    return errorBody(
      `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`,
      issue.keys[0] ?? null,
    );
  }
  const field = issue.path.map(String).join('.');
  return field ? errorBody(`${field}: ${issue.message}`, field) : errorBody(issue.message);
}
