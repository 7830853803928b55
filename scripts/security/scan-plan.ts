// The pure half of `npm run security:scan`: which URLs the scanners get and with which arguments, and how
// their reports are read. scripts/security/scan.ts runs them against a dashboard on loopback.
// - wapiti gets the signed-in operator's cookie and the dashboard's own Origin as headers (a browser sends
//   Origin on every POST; without it the CSRF check would refuse every attack before any handler ran), and the
//   pages and the API URLs with query strings as start points. The sign-out URLs are never given and no page
//   links them (Sign out is a button's fetch), so the crawler does not end its own session; scan.ts checks
//   that the session was still alive afterwards. (Debian's wapiti 3.0.4 crashes on --exclude under Python
//   3.11, so exclusion is not an option.) Its ssrf and xxe modules are left out: both ask an outside callback
//   server (wapiti3.ovh) for their results, and the scan stays on loopback; the dashboard parses no XML.
// - sqlmap gets each endpoint that takes a query string or a JSON body, one run each, marked with `*`.

export interface ScanTarget {
  baseUrl: string;
  /** `warden_session=<value>` of a signed-in operator. */
  cookie: string;
  /** A group id with stored samples, for the group URLs. */
  groupId: string;
}

export const WAPITI_MODULES = [
  'blindsql',
  'cookieflags',
  'crlf',
  'csp',
  'exec',
  'file',
  'http_headers',
  'methods',
  'permanentxss',
  'redirect',
  'sql',
  'xss',
] as const;

/** The URLs with query strings the API takes (GET), each with a value per parameter. */
export function apiQueryUrls(target: Pick<ScanTarget, 'baseUrl' | 'groupId'>): string[] {
  const group = encodeURIComponent(target.groupId);
  return [
    `/api/audit?kind=access&groupId=${group}&limit=50`,
    `/api/groups`,
    `/api/groups/${group}`,
    `/api/groups/${group}/lag?range=1h`,
    `/api/groups/${group}/advice`,
    `/api/rebalances?groupId=${group}&limit=20`,
    `/api/quarantine`,
    `/api/commands/1`,
  ].map((path) => `${target.baseUrl}${path}`);
}

export function wapitiArgs(
  target: ScanTarget,
  options: { reportPath: string; sessionDir: string; maxScanSec: number; maxAttackSec: number },
): string[] {
  const start = [
    `${target.baseUrl}/quarantine`,
    `${target.baseUrl}/rebalances`,
    `${target.baseUrl}/audit`,
    `${target.baseUrl}/groups/${encodeURIComponent(target.groupId)}`,
    ...apiQueryUrls(target),
  ];
  return [
    '--url',
    `${target.baseUrl}/`,
    '--scope',
    'folder',
    ...start.flatMap((url) => ['--start', url]),
    '--header',
    `Cookie: ${target.cookie}`,
    '--header',
    `Origin: ${target.baseUrl}`,
    '--module',
    WAPITI_MODULES.join(','),
    '--flush-session',
    '--store-session',
    options.sessionDir,
    '--max-scan-time',
    String(options.maxScanSec),
    '--max-attack-time',
    String(options.maxAttackSec),
    '--timeout',
    '10',
    '--format',
    'json',
    '--output',
    options.reportPath,
    '--no-bugreport',
    '--verbose',
    '0',
  ];
}

export interface SqlmapRun {
  name: string;
  args: string[];
}

/** One sqlmap run per endpoint that takes input; `*` marks where it injects. */
export function sqlmapRuns(target: ScanTarget, options: { outputDir: string }): SqlmapRun[] {
  const group = encodeURIComponent(target.groupId);
  const common = [
    '--batch',
    '--level',
    '2',
    '--risk',
    '1',
    '--technique',
    'BEUST',
    '--time-sec',
    '2',
    '--dbms',
    'PostgreSQL',
    '--cookie',
    target.cookie,
    '--output-dir',
    options.outputDir,
    '--disable-coloring',
  ];
  const get = (url: string, parameters?: string) => [
    '-u',
    url,
    ...(parameters ? ['-p', parameters] : []),
    '--headers',
    `Origin: ${target.baseUrl}`,
  ];
  const json = (path: string, body: string) => [
    '-u',
    `${target.baseUrl}${path}`,
    '--method',
    'POST',
    '--data',
    body,
    '--headers',
    `Origin: ${target.baseUrl}\nContent-Type: application/json`,
  ];
  return [
    {
      name: 'GET /api/audit (kind, groupId, limit)',
      args: get(`${target.baseUrl}/api/audit?kind=access&groupId=${group}&limit=50`, 'kind,groupId,limit'),
    },
    {
      name: 'GET /api/groups/{groupId}/lag (groupId in the path, range)',
      args: get(`${target.baseUrl}/api/groups/${group}*/lag?range=1h*`),
    },
    {
      name: 'GET /api/rebalances (groupId, limit)',
      args: get(`${target.baseUrl}/api/rebalances?groupId=${group}&limit=20`, 'groupId,limit'),
    },
    {
      name: 'POST /api/auth/sign-in (JSON name, password)',
      // A wrong password is a 401 and, after five, a 429: both are the answers to compare, not stop signs.
      args: [
        ...json('/api/auth/sign-in', '{"name":"scan-probe*","password":"not-a-password*"}'),
        '--ignore-code',
        '401,429',
      ],
    },
    {
      name: 'POST /api/groups/{groupId}/partitions/{topic}/{partition}/actions (JSON reason)',
      args: json(
        `/api/groups/${group}/partitions/scan-topic/0/actions`,
        '{"action":"resume*","reason":"security scan probe*"}',
      ),
    },
    {
      name: 'POST /api/groups/{groupId}/offsets/reset (JSON)',
      args: json(
        `/api/groups/${group}/offsets/reset`,
        '{"topic":"scan-topic*","to":"earliest*","reason":"security scan probe*"}',
      ),
    },
  ].map((run) => ({ name: run.name, args: [...run.args, ...common] }));
}

export type Severity = 'info' | 'low' | 'medium' | 'high' | 'critical';
const SEVERITIES: readonly Severity[] = ['info', 'low', 'medium', 'high', 'critical'];

export interface Finding {
  kind: 'vulnerability' | 'anomaly';
  category: string;
  severity: Severity;
  method: string;
  path: string;
  parameter: string;
  info: string;
}

interface WapitiEntry {
  method?: unknown;
  path?: unknown;
  info?: unknown;
  level?: unknown;
  parameter?: unknown;
}

/** Wapiti's levels: "0" info … "4" critical (wapitiCore/language/vulnerability.py); anything else is info. */
function severityOf(level: unknown): Severity {
  const index = Number(level);
  return Number.isInteger(index) && index >= 0 && index < SEVERITIES.length ? SEVERITIES[index]! : 'info';
}

/** Every vulnerability and anomaly of a wapiti JSON report; throws when the text is not such a report. */
export function readWapitiReport(text: string): Finding[] {
  const report = JSON.parse(text) as { vulnerabilities?: unknown; anomalies?: unknown };
  if (typeof report !== 'object' || report === null || typeof report.vulnerabilities !== 'object')
    throw new Error('not a wapiti JSON report: no "vulnerabilities"');
  const findings: Finding[] = [];
  const collect = (kind: Finding['kind'], section: unknown) => {
    for (const [category, entries] of Object.entries((section ?? {}) as Record<string, unknown>)) {
      if (!Array.isArray(entries)) continue;
      for (const entry of entries as WapitiEntry[]) {
        findings.push({
          kind,
          category,
          severity: severityOf(entry.level),
          method: String(entry.method ?? ''),
          path: String(entry.path ?? ''),
          parameter: String(entry.parameter ?? ''),
          info: String(entry.info ?? ''),
        });
      }
    }
  };
  collect('vulnerability', report.vulnerabilities);
  collect('anomaly', report.anomalies);
  return findings;
}

export function isMediumOrHigher(finding: Finding): boolean {
  return SEVERITIES.indexOf(finding.severity) >= SEVERITIES.indexOf('medium');
}

export type SqlmapVerdict = 'injectable' | 'not injectable' | 'inconclusive';

/** What one sqlmap run concluded, from its console output. */
export function readSqlmapOutput(output: string): SqlmapVerdict {
  if (/sqlmap identified the following injection point/i.test(output)) return 'injectable';
  if (/do(es)? not (seem|appear) to be injectable/i.test(output)) return 'not injectable';
  return 'inconclusive';
}

/** The scan's summary as Markdown lines: counts by severity, then every finding of medium or higher. */
export function summaryLines(
  findings: readonly Finding[],
  sqlmap: readonly { name: string; verdict: SqlmapVerdict }[],
) {
  const count = (kind: Finding['kind'], severity: Severity) =>
    findings.filter((f) => f.kind === kind && f.severity === severity).length;
  const lines = [
    '| wapiti | critical | high | medium | low | info |',
    '| --- | --- | --- | --- | --- | --- |',
    ...(['vulnerability', 'anomaly'] as const).map(
      (kind) =>
        `| ${kind} | ${[...SEVERITIES]
          .reverse()
          .map((s) => count(kind, s))
          .join(' | ')} |`,
    ),
    '',
  ];
  const serious = findings.filter(isMediumOrHigher);
  lines.push(serious.length === 0 ? 'No wapiti finding of medium or higher.' : 'Medium or higher:');
  for (const f of serious)
    lines.push(`- ${f.severity} ${f.kind} "${f.category}": ${f.method} ${f.path} ${f.parameter} — ${f.info}`.trim());
  const rest = new Map<string, number>();
  for (const f of findings.filter((f) => !isMediumOrHigher(f)))
    rest.set(`${f.severity} ${f.category}`, (rest.get(`${f.severity} ${f.category}`) ?? 0) + 1);
  if (rest.size > 0) lines.push('', 'Below medium:', ...[...rest].map(([what, n]) => `- ${what}: ${n}`));
  lines.push('', '| sqlmap target | verdict |', '| --- | --- |', ...sqlmap.map((s) => `| ${s.name} | ${s.verdict} |`));
  return lines;
}
