import { z } from 'zod';

// Signing in and out of the dashboard. POST /api/auth/sign-in takes ZSignInRequest and answers ZSessionInfo
// with the session cookie; GET /api/auth/session answers ZSessionInfo for whoever is asking (cookie or token);
// POST /api/auth/sign-out deletes the cookie. Nothing here ever carries a password hash or a token.

export const ZRole = z.enum(['viewer', 'operator']);
export type TRole = z.infer<typeof ZRole>;

export const ZSignInRequest = z
  .object({
    name: z
      .string({ error: 'is required' })
      .trim()
      .min(1, 'is required')
      .max(64, 'must be at most 64 characters')
      .regex(/^\P{Cc}*$/u, 'must not contain control characters'),
    password: z.string({ error: 'is required' }).min(1, 'is required').max(1024, 'must be at most 1024 characters'),
    /** Where the page goes afterwards; only a path on this site is honoured. */
    next: z.string().max(2000).optional(),
  })
  .strict();
export type TSignInRequest = z.infer<typeof ZSignInRequest>;

export const ZSessionInfo = z.object({
  name: z.string(),
  role: ZRole,
  via: z.enum(['session', 'token']),
  /** Where to go next (sign-in only): a path on this site. */
  next: z.string().optional(),
});
export type TSessionInfo = z.infer<typeof ZSessionInfo>;

/** POST /api/auth/sign-out: whether the cookie was a session (a cookie that was none signs nobody out). */
export const ZSignOutResult = z.object({ signedOut: z.boolean() });
/** POST /api/auth/sign-out-all: how many of the user's sessions ended, this one included. */
export const ZSignOutAllResult = z.object({ sessionsEnded: z.number().int().min(0) });
export type TSignOutResult = z.infer<typeof ZSignOutResult>;
export type TSignOutAllResult = z.infer<typeof ZSignOutAllResult>;
