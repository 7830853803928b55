// Every schema the browser parses with, by name, each loaded on first use (api-client.ts `loadBrowserSchema`),
// so never while a page starts: nothing can be parsed before an answer has arrived. zod's core loads first, alone
// (./zod-jitless, which sets jitless mode before any schema is built), then only the schema module the answer
// needs, in a task of its own: building every schema at once made the first poll's parse one long task
// (docs/decisions/0036-page-start-up-cost.md). Nothing else in the browser imports zod or a schema's value (eslint.config.mjs).

/** zod, configured, before the schema module `load` brings: every loader below goes through it. */
function afterZod<M>(load: () => Promise<M>): Promise<M> {
  return import('./zod-jitless').then(load);
}

const alerts = () => afterZod(() => import('@/lib/schemas/alerts'));
const deadLetters = () => afterZod(() => import('@/lib/schemas/dead-letters'));
const groups = () => afterZod(() => import('@/lib/schemas/groups'));
const operatorActions = () => afterZod(() => import('@/lib/schemas/operator-actions'));
const quarantines = () => afterZod(() => import('@/lib/schemas/quarantines'));

export const BROWSER_SCHEMA_LOADERS = {
  acknowledgement: () => alerts().then((m) => m.ZAcknowledgement),
  alerts: () => alerts().then((m) => m.ZAlertsResponse),
  apiError: () => afterZod(() => import('@/lib/schemas/common')).then((m) => m.ZApiError),
  attention: () => afterZod(() => import('@/lib/schemas/attention')).then((m) => m.ZAttention),
  audit: () => operatorActions().then((m) => m.ZAuditResponse),
  deadLetterCounts: () => deadLetters().then((m) => m.ZDeadLetterCounts),
  deadLetterFilter: () => deadLetters().then((m) => m.ZDeadLetterFilter),
  deadLetterMatches: () => deadLetters().then((m) => m.ZDeadLetterMatches),
  deadLetters: () => deadLetters().then((m) => m.ZDeadLettersResponse),
  groupAdvice: () => afterZod(() => import('@/lib/schemas/advice')).then((m) => m.ZGroupAdvice),
  groupDetail: () => groups().then((m) => m.ZGroupDetail),
  groups: () => groups().then((m) => m.ZGroupsResponse),
  lagSeries: () => groups().then((m) => m.ZLagSeries),
  offsetReset: () => afterZod(() => import('@/lib/schemas/offset-reset')).then((m) => m.ZOffsetResetResult),
  operatorAction: () => operatorActions().then((m) => m.ZOperatorAction),
  quarantines: () => quarantines().then((m) => m.ZQuarantinesResponse),
  rebalances: () => afterZod(() => import('@/lib/schemas/rebalances')).then((m) => m.ZRebalancesResponse),
  recordLossOfGroup: () => afterZod(() => import('@/lib/schemas/record-losses')).then((m) => m.ZRecordLossOfGroup),
  recordsAround: () => quarantines().then((m) => m.ZRecordsAround),
  redriveJob: () => deadLetters().then((m) => m.ZRedriveJob),
  redriveJobs: () => deadLetters().then((m) => m.ZRedriveJobsResponse),
  session: () => afterZod(() => import('@/lib/schemas/auth')).then((m) => m.ZSessionInfo),
  silence: () => alerts().then((m) => m.ZSilence),
} as const;
