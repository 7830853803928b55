import { z } from 'zod';
import {
  ZAcknowledgement,
  ZAcknowledgeRequest,
  ZAlertRouteParams,
  ZAlertsResponse,
  ZSilence,
  ZSilenceRequest,
} from '../schemas/alerts';
import { ZAttention } from '../schemas/attention';
import { ZSessionInfo, ZSignInRequest, ZSignOutAllResult, ZSignOutResult } from '../schemas/auth';
import { ZClusterName } from '../schemas/clusters';
import { ZGroupRouteParams, ZPartitionRouteParams } from '../schemas/common';
import {
  ZDeadLetterCounts,
  ZDeadLetterFilterQueryParams,
  ZDeadLetterMatches,
  ZDeadLettersQueryParams,
  ZDeadLettersResponse,
  ZRedriveControl,
  ZRedriveIdParams,
  ZRedriveJob,
  ZRedriveJobsResponse,
  ZRedriveRequest,
} from '../schemas/dead-letters';
import { ZGroupAdvice } from '../schemas/advice';
import { ZGroupDetail, ZGroupsQuery, ZGroupsResponse, ZLagSeries, ZLagSeriesQuery } from '../schemas/groups';
import { ZOffsetResetRequest, ZOffsetResetResult } from '../schemas/offset-reset';
import {
  ZActionRequest,
  ZAuditQuery,
  ZAuditResponse,
  ZCommand,
  ZCommandIdParam,
  ZOperatorAction,
} from '../schemas/operator-actions';
import { ZQuarantinesResponse, ZRecordsAround } from '../schemas/quarantines';
import { ZLossAcknowledgeRequest, ZLossRouteParams, ZRecordLossOfGroup } from '../schemas/record-losses';
import { ZRebalancesQuery, ZRebalancesResponse } from '../schemas/rebalances';

// Every API route, one entry each: the source of the OpenAPI document (openapi-document.ts) and of the fuzz
// test (e2e/api-fuzz.spec.ts). The schemas are the very ones the route handlers parse with and the UI hooks
// read with. A route file under app/api/ without an entry here (or an entry without its route) fails
// api-routes.test.ts; adding a route is adding one entry below.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who may call it: `open` needs no credentials (its handler checks the Origin of a POST); else the least role. */
export type RouteAccess = 'open' | 'viewer' | 'operator';

/** Refusals a route can answer, every one with the ZApiError body. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 429 | 503;

export interface ApiRoute {
  method: HttpMethod;
  /** OpenAPI path template: `/api/groups/{groupId}` for `app/api/groups/[groupId]/route.ts`. */
  path: string;
  summary: string;
  access: RouteAccess;
  /** Path parameters (an object schema whose keys are the `{names}` of the path). */
  params?: z.ZodObject;
  /** Query parameters, all strings on the wire. */
  query?: z.ZodObject;
  /** JSON request body. */
  body?: z.ZodType;
  success: { status: 200 | 201 | 202; description: string; schema: z.ZodType };
  errors: ErrorStatus[];
}

/** What every route but an open one can answer: 401 without valid credentials. */
const SIGNED_IN: ErrorStatus[] = [401];
/** A POST: 400 and 413 for the body, 403 for another Origin (or too small a role). */
const WRITE: ErrorStatus[] = [400, 401, 403, 413];

/**
 * `?cluster=`: which configured cluster a group route is about; absent means `default`, so every URL from
 * before clusters keeps its meaning (400 for a name that is not URL-safe, 404 for one not configured).
 */
const ZClusterQuery = z.object({ cluster: ZClusterName.optional() });

export const API_ROUTES: ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/openapi.json',
    summary: 'This document: OpenAPI 3.1, generated from the schemas the routes parse with.',
    access: 'viewer',
    success: { status: 200, description: 'The OpenAPI document', schema: z.record(z.string(), z.unknown()) },
    errors: SIGNED_IN,
  },
  {
    method: 'POST',
    path: '/api/auth/sign-in',
    summary: 'Signs in with a name and password; sets the session cookie (HttpOnly, SameSite=Lax).',
    access: 'open',
    body: ZSignInRequest,
    success: { status: 200, description: 'Signed in; the session cookie is set', schema: ZSessionInfo },
    errors: [400, 401, 403, 413, 429],
  },
  {
    method: 'POST',
    path: '/api/auth/sign-out',
    summary: 'Ends the stored session of the cookie sent (every copy of it is refused after) and deletes the cookie.',
    access: 'open',
    success: { status: 200, description: 'The cookie is deleted', schema: ZSignOutResult },
    errors: [403],
  },
  {
    method: 'POST',
    path: '/api/auth/sign-out-all',
    summary: 'Ends every session of the signed-in user, this one included.',
    access: 'viewer',
    success: { status: 200, description: 'Every session of the user ended', schema: ZSignOutAllResult },
    errors: [400, 401, 403],
  },
  {
    method: 'GET',
    path: '/api/auth/session',
    summary: 'Who is asking (session cookie or bearer token) and their role.',
    access: 'viewer',
    success: { status: 200, description: 'The caller', schema: ZSessionInfo },
    errors: SIGNED_IN,
  },
  {
    method: 'GET',
    path: '/api/groups',
    summary:
      'One page of the recently sampled consumer groups with status, lag, worst time lag and trend, worst first unless sort/order say otherwise; filtered by name (q, a substring), status and cluster; total and per-status counts of every match.',
    access: 'viewer',
    query: z.object({ ...ZGroupsQuery.shape, ...ZClusterQuery.shape }),
    success: { status: 200, description: 'The groups', schema: ZGroupsResponse },
    errors: [400, 401, 404],
  },
  {
    method: 'GET',
    path: '/api/groups/{groupId}',
    summary:
      "One group's partitions (lag, time lag, rates, owner, status (LOST while a record loss is unacknowledged), retention risk, quarantine, commit prefix), its instances that report to Warden (live, gone or stopped; readiness, partitions, refused commands) and its record losses (unacknowledged, and the last 7 days').",
    access: 'viewer',
    params: ZGroupRouteParams,
    query: ZClusterQuery,
    success: { status: 200, description: 'The group', schema: ZGroupDetail },
    errors: [400, 401, 404],
  },
  {
    method: 'GET',
    path: '/api/groups/{groupId}/lag',
    summary: 'Per-partition lag, time lag and rate series for charts: a range, or from/to, and an optional step.',
    access: 'viewer',
    params: ZGroupRouteParams,
    query: z.object({ ...ZLagSeriesQuery.shape, ...ZClusterQuery.shape }),
    success: { status: 200, description: 'The series, aligned on `times`', schema: ZLagSeries },
    errors: [400, 401, 404],
  },
  {
    method: 'GET',
    path: '/api/groups/{groupId}/advice',
    summary: 'Capacity plan ("scale consumers to N, catch up in T") with its what-if curve, and advice.',
    access: 'viewer',
    params: ZGroupRouteParams,
    query: ZClusterQuery,
    success: { status: 200, description: 'The plan and the advice', schema: ZGroupAdvice },
    errors: [400, 401, 404],
  },
  {
    method: 'POST',
    path: '/api/groups/{groupId}/offsets/reset',
    summary: "Resets a non-Warden group's committed offsets while it has no members (Empty or Dead).",
    access: 'operator',
    params: ZGroupRouteParams,
    body: ZOffsetResetRequest,
    success: {
      status: 200,
      description: 'The offsets written, one audit row per partition',
      schema: ZOffsetResetResult,
    },
    errors: [...WRITE, 404, 409, 503],
  },
  {
    method: 'POST',
    path: '/api/groups/{groupId}/partitions/{topic}/{partition}/actions',
    summary:
      'Resume, skip or seek a quarantined partition; a Warden worker relays it to the command topic and the live instance that owns the partition applies it. A 403 or 409 refusal is kept as a rejected audit row.',
    access: 'operator',
    params: ZPartitionRouteParams,
    query: ZClusterQuery,
    body: ZActionRequest,
    success: {
      status: 202,
      description: 'Recorded as pending; poll the Location (/api/commands/{id})',
      schema: ZOperatorAction,
    },
    errors: [...WRITE, 404, 409],
  },
  {
    method: 'POST',
    path: '/api/groups/{groupId}/losses/{lossId}/acknowledge',
    summary:
      'Acknowledges records the retention deleted unread (one loss episode), with a reason: the partition is no longer LOST and its records-lost alert resolves; the audit keeps who, when and why. Unacknowledged again if more records of it are lost later.',
    access: 'operator',
    params: ZLossRouteParams,
    query: ZClusterQuery,
    body: ZLossAcknowledgeRequest,
    success: { status: 200, description: 'The acknowledged episode', schema: ZRecordLossOfGroup },
    errors: [...WRITE, 404, 409],
  },
  {
    method: 'GET',
    path: '/api/groups/{groupId}/partitions/{topic}/{partition}/records',
    summary:
      "The records just before and after a quarantined partition's held offset, read from the broker (payloads per WARDEN_PAYLOAD_ACCESS).",
    access: 'viewer',
    params: ZPartitionRouteParams,
    success: { status: 200, description: 'The held record and its neighbours', schema: ZRecordsAround },
    errors: [400, 401, 404, 503],
  },
  {
    method: 'GET',
    path: '/api/commands/{id}',
    summary: "An operator action's state: pending, applied or failed, with a message.",
    access: 'viewer',
    params: z.object({ id: ZCommandIdParam }),
    success: { status: 200, description: 'The command', schema: ZCommand },
    errors: [400, 401, 404],
  },
  {
    method: 'GET',
    path: '/api/quarantine',
    summary:
      'Every quarantined partition with its held record, log range, the instance holding it, the live instance owning it and the pending action (relayed or not, and its expiry).',
    access: 'viewer',
    success: { status: 200, description: 'The quarantines', schema: ZQuarantinesResponse },
    errors: SIGNED_IN,
  },
  {
    method: 'GET',
    path: '/api/attention',
    summary:
      'How many partitions are quarantined and how many alerts are firing (every cluster): the counts of GET /api/quarantine and GET /api/alerts without their lists.',
    access: 'viewer',
    success: { status: 200, description: 'The counts', schema: ZAttention },
    errors: SIGNED_IN,
  },
  {
    method: 'GET',
    path: '/api/audit',
    summary:
      'Every operator action, redrive, record-loss acknowledgement and access event (who, what, target, reason, when, outcome), newest first; every cluster, or one with ?cluster= (then no access events, which belong to no cluster).',
    access: 'viewer',
    query: z.object({ ...ZAuditQuery.shape, ...ZClusterQuery.shape }),
    success: { status: 200, description: 'The audit log', schema: ZAuditResponse },
    errors: [400, 401, 404],
  },
  {
    method: 'GET',
    path: '/api/rebalances',
    summary: "One cluster's rebalance history (`default` without ?cluster=), newest first, one entry per rebalance.",
    access: 'viewer',
    query: z.object({ ...ZRebalancesQuery.shape, ...ZClusterQuery.shape }),
    success: { status: 200, description: 'The rebalances', schema: ZRebalancesResponse },
    errors: [400, 401, 404],
  },
  {
    method: 'GET',
    path: '/api/alerts',
    summary:
      "Open alerts, history, active silences, each alert's notifications and deliveries; every cluster, or one with ?cluster=.",
    access: 'viewer',
    query: ZClusterQuery,
    success: { status: 200, description: 'The alerts', schema: ZAlertsResponse },
    errors: [400, 401, 404],
  },
  {
    method: 'POST',
    path: '/api/alerts/{id}/acknowledge',
    summary: 'An operator takes a firing alert: no more reminders (its resolution is still sent).',
    access: 'operator',
    params: ZAlertRouteParams,
    body: ZAcknowledgeRequest,
    success: { status: 200, description: 'Acknowledged', schema: ZAcknowledgement },
    errors: [...WRITE, 404, 409],
  },
  {
    method: 'POST',
    path: '/api/alerts/silences',
    summary:
      'Silences a group and/or a condition of one cluster (`default` without `cluster`) for a duration, with a reason; 400 for a cluster not configured.',
    access: 'operator',
    body: ZSilenceRequest,
    success: { status: 201, description: 'The silence', schema: ZSilence },
    errors: WRITE,
  },
  {
    method: 'GET',
    path: '/api/dead-letters',
    summary:
      'One page of the dead-letter topic, newest first, filtered by source, error class, key and time (payloads per WARDEN_PAYLOAD_ACCESS); empty while the topic does not exist yet, for a time range outside its records and for a cursor naming none of its partitions.',
    access: 'viewer',
    query: ZDeadLettersQueryParams,
    success: { status: 200, description: 'The page and the cursor of the next', schema: ZDeadLettersResponse },
    errors: [400, 401, 403, 503],
  },
  {
    method: 'GET',
    path: '/api/dead-letters/counts',
    summary:
      'Dead letters by error class and by source, over the newest records of the topic (bounded); zero while the topic does not exist yet.',
    access: 'viewer',
    success: { status: 200, description: 'The counts and the records they cover', schema: ZDeadLetterCounts },
    errors: [401, 503],
  },
  {
    method: 'GET',
    path: '/api/dead-letters/matches',
    summary:
      'How many dead letters a redrive of this filter would send, and how many were redriven before; 0 while the topic does not exist yet.',
    access: 'operator',
    query: ZDeadLetterFilterQueryParams,
    success: { status: 200, description: 'The count to confirm', schema: ZDeadLetterMatches },
    errors: [400, 401, 403, 409, 503],
  },
  {
    method: 'GET',
    path: '/api/dead-letters/redrives',
    summary: 'The newest redrive jobs with their progress.',
    access: 'viewer',
    success: { status: 200, description: 'The jobs', schema: ZRedriveJobsResponse },
    errors: SIGNED_IN,
  },
  {
    method: 'POST',
    path: '/api/dead-letters/redrives',
    summary:
      'Requests a redrive job (run by a worker at a rate); 400 naming `selection` for a record the topic does not hold, 409 when the confirmed count is stale (a filter over a topic not created yet matches 0) or a record was redriven before (unless forced).',
    access: 'operator',
    body: ZRedriveRequest,
    success: { status: 202, description: 'The job, pending', schema: ZRedriveJob },
    errors: [...WRITE, 409, 503],
  },
  {
    method: 'POST',
    path: '/api/dead-letters/redrives/{id}',
    summary: 'Pauses, resumes or cancels a redrive job, with a reason.',
    access: 'operator',
    params: ZRedriveIdParams,
    body: ZRedriveControl,
    success: { status: 200, description: 'The job', schema: ZRedriveJob },
    errors: [...WRITE, 404, 409],
  },
];
