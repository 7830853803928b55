import { z } from 'zod';
import { ZIsoTime } from './common';

// The access log as GET /api/audit shows it: every sign-in (succeeded, wrong password, rate-limited) and
// sign-out, with the name given, the client's address and user agent. Never a password, cookie or token.

export const ACCESS_EVENT_KINDS = [
  'sign-in',
  'sign-in-failed',
  'sign-in-rate-limited',
  'sign-out',
  'sign-out-all',
] as const;
export const ZAccessEventKind = z.enum(ACCESS_EVENT_KINDS);
export type TAccessEventKind = z.infer<typeof ZAccessEventKind>;

export const ZAccessEvent = z.object({
  id: z.string(),
  kind: ZAccessEventKind,
  userName: z.string(),
  clientAddress: z.string(),
  userAgent: z.string(),
  detail: z.string().nullable(),
  at: ZIsoTime,
});
export type TAccessEvent = z.infer<typeof ZAccessEvent>;

/**
 * The `kind` filter of GET /api/audit: `actions` (operator actions and resets only), `access` (every access
 * event only), or one access event kind; absent, both lists.
 */
export const AUDIT_KIND_FILTERS = ['actions', 'access', ...ACCESS_EVENT_KINDS] as const;
export const ZAuditKindFilter = z.enum(AUDIT_KIND_FILTERS, {
  error: `must be one of ${AUDIT_KIND_FILTERS.join(', ')}`,
});
export type TAuditKindFilter = z.infer<typeof ZAuditKindFilter>;
