// First: sets zod's jitless mode before any schema below is built.
import './zod-jitless';
import { ZGroupAdvice } from '@/lib/schemas/advice';
import { ZAcknowledgement, ZAlertsResponse, ZSilence } from '@/lib/schemas/alerts';
import { ZAttention } from '@/lib/schemas/attention';
import { ZSessionInfo } from '@/lib/schemas/auth';
import { ZApiError } from '@/lib/schemas/common';
import {
  ZDeadLetterCounts,
  ZDeadLetterFilter,
  ZDeadLetterMatches,
  ZDeadLettersResponse,
  ZRedriveJob,
  ZRedriveJobsResponse,
} from '@/lib/schemas/dead-letters';
import { ZGroupDetail, ZGroupsResponse, ZLagSeries } from '@/lib/schemas/groups';
import { ZOffsetResetResult } from '@/lib/schemas/offset-reset';
import { ZAuditResponse, ZOperatorAction } from '@/lib/schemas/operator-actions';
import { ZQuarantinesResponse, ZRecordsAround } from '@/lib/schemas/quarantines';
import { ZRebalancesResponse } from '@/lib/schemas/rebalances';

// Every schema the browser parses with, by name. This module, and zod with it, is loaded with the first API
// answer (api-client.ts `loadBrowserSchemas`), so never while a page starts: nothing can be parsed before an
// answer has arrived, and zod's code with every schema built at module load was the costliest start-up work of
// the dashboard's own. Nothing else in the browser imports zod or a schema's value (eslint.config.mjs).

export const BROWSER_SCHEMAS = {
  acknowledgement: ZAcknowledgement,
  alerts: ZAlertsResponse,
  apiError: ZApiError,
  attention: ZAttention,
  audit: ZAuditResponse,
  deadLetterCounts: ZDeadLetterCounts,
  deadLetterFilter: ZDeadLetterFilter,
  deadLetterMatches: ZDeadLetterMatches,
  deadLetters: ZDeadLettersResponse,
  groupAdvice: ZGroupAdvice,
  groupDetail: ZGroupDetail,
  groups: ZGroupsResponse,
  lagSeries: ZLagSeries,
  offsetReset: ZOffsetResetResult,
  operatorAction: ZOperatorAction,
  quarantines: ZQuarantinesResponse,
  rebalances: ZRebalancesResponse,
  recordsAround: ZRecordsAround,
  redriveJob: ZRedriveJob,
  redriveJobs: ZRedriveJobsResponse,
  session: ZSessionInfo,
  silence: ZSilence,
} as const;
