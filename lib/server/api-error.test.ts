import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, describeZodError, errorBody } from './api-error';
import { errorResponse } from './api-response';

describe('API error bodies', () => {
  it('always carry field, null where no field applies', async () => {
    for (const status of [401, 403, 404, 409, 429] as const) {
      const response = errorResponse(new ApiError(status, 'refused'));
      expect(response.status).toBe(status);
      expect(await response.json()).toEqual({ error: 'refused', field: null });
    }
    expect(await errorResponse(new Error('boom')).json()).toEqual({
      error: 'internal error; see the server log',
      field: null,
    });
  });

  it('name the field of a refused input', async () => {
    expect(await errorResponse(new ApiError(400, 'offset: outside the log', 'offset')).json()).toEqual({
      error: 'offset: outside the log',
      field: 'offset',
    });
    const parsed = z.object({ reason: z.string() }).strict().safeParse({ reason: 1 });
    expect(describeZodError(parsed.error!)).toEqual({
      error: 'reason: Invalid input: expected string, received number',
      field: 'reason',
    });
    const extra = z.object({}).strict().safeParse({ surprise: 1 });
    expect(describeZodError(extra.error!)).toEqual({ error: 'unknown field surprise', field: 'surprise' });
    const root = z.string().safeParse(1);
    expect(describeZodError(root.error!)).toEqual({
      error: 'Invalid input: expected string, received number',
      field: null,
    });
  });

  it('have one shape', () => {
    expect(errorBody('x')).toEqual({ error: 'x', field: null });
    expect(errorBody('x', 'reason')).toEqual({ error: 'x', field: 'reason' });
  });
});
