import { z } from 'zod';
import { ZIsoTime } from './common';
import { ACCESS_EVENT_KINDS, AUDIT_KIND_FILTERS } from './values';

// The access log as GET /api/audit shows it: every sign-in (succeeded, wrong password, rate-limited) and
// sign-out, with the name given, the client's address and user agent. Never a password, cookie or token.

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

/** The `kind` filter of GET /api/audit (values.ts says what each one lists). */
export const ZAuditKindFilter = z.enum(AUDIT_KIND_FILTERS, {
  error: `must be one of ${AUDIT_KIND_FILTERS.join(', ')}`,
});
export type TAuditKindFilter = z.infer<typeof ZAuditKindFilter>;
