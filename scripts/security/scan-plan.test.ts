import { describe, expect, it } from 'vitest';
import {
  apiQueryUrls,
  isMediumOrHigher,
  readSqlmapOutput,
  readWapitiReport,
  sqlmapRuns,
  summaryLines,
  wapitiArgs,
} from './scan-plan';

const target = { baseUrl: 'http://127.0.0.1:25300', cookie: 'warden_session=s1.abc', groupId: 'orders v2' };

const after = (args: string[], flag: string) => args.flatMap((a, i) => (a === flag ? [args[i + 1]!] : []));

describe('wapitiArgs', () => {
  it('scans the dashboard signed in, with its Origin, from every page and API query, no ssrf, JSON out', () => {
    const args = wapitiArgs(target, { reportPath: '/r.json', sessionDir: '/s', maxScanSec: 300, maxAttackSec: 40 });
    expect(after(args, '--url')).toEqual(['http://127.0.0.1:25300/']);
    expect(after(args, '--header')).toEqual(['Cookie: warden_session=s1.abc', 'Origin: http://127.0.0.1:25300']);
    const start = after(args, '--start');
    expect(start).toContain('http://127.0.0.1:25300/groups/orders%20v2');
    expect(start).toContain('http://127.0.0.1:25300/api/audit?kind=access&groupId=orders%20v2&limit=50');
    expect(start.some((url) => url.includes('sign-out'))).toBe(false);
    expect(after(args, '--module')[0]!.split(',')).not.toContain('ssrf');
    expect(after(args, '--module')[0]!.split(',')).not.toContain('xxe');
    expect([after(args, '--format'), after(args, '--output'), after(args, '--max-scan-time')]).toEqual([
      ['json'],
      ['/r.json'],
      ['300'],
    ]);
  });

  it('gives every API URL with a query string on the dashboard itself', () => {
    for (const url of apiQueryUrls(target)) expect(url.startsWith('http://127.0.0.1:25300/api/')).toBe(true);
  });
});

describe('sqlmapRuns', () => {
  it('one batch run per endpoint taking input, signed in, JSON bodies marked for injection', () => {
    const runs = sqlmapRuns(target, { outputDir: '/out' });
    expect(runs.map((r) => r.name)).toHaveLength(6);
    for (const run of runs) {
      expect(run.args).toContain('--batch');
      expect(after(run.args, '--cookie')).toEqual(['warden_session=s1.abc']);
      expect(after(run.args, '--headers')).toHaveLength(1);
      expect(after(run.args, '--headers')[0]).toMatch(/^Origin: http:\/\/127\.0\.0\.1:25300/);
    }
    const signIn = runs.find((r) => r.name.startsWith('POST /api/auth/sign-in'))!;
    expect(after(signIn.args, '--data')).toEqual(['{"name":"scan-probe*","password":"not-a-password*"}']);
    expect(after(signIn.args, '--headers')[0]).toContain('Content-Type: application/json');
    expect(after(signIn.args, '--ignore-code')).toEqual(['401,429']);
    expect(after(runs[1]!.args, '-u')).toEqual(['http://127.0.0.1:25300/api/groups/orders%20v2*/lag?range=1h*']);
  });
});

describe('reading the reports', () => {
  const report = JSON.stringify({
    vulnerabilities: {
      'HTTP Secure Headers': [
        { method: 'GET', path: '/', info: 'X-XSS-Protection is not set', level: 1, parameter: '' },
      ],
      'SQL Injection': [{ method: 'GET', path: '/api/audit', info: 'SQL error', level: '4', parameter: 'kind' }],
      'Cross Site Scripting': [],
    },
    anomalies: {
      'Internal Server Error': [
        { method: 'GET', path: '/api/rebalances', info: '500', level: 3, parameter: 'groupId' },
      ],
    },
    additionals: {},
  });

  it('reads every vulnerability and anomaly with wapiti levels as severities', () => {
    const findings = readWapitiReport(report);
    expect(findings.map((f) => [f.kind, f.category, f.severity, f.parameter])).toEqual([
      ['vulnerability', 'HTTP Secure Headers', 'low', ''],
      ['vulnerability', 'SQL Injection', 'critical', 'kind'],
      ['anomaly', 'Internal Server Error', 'high', 'groupId'],
    ]);
    expect(findings.filter(isMediumOrHigher).map((f) => f.category)).toEqual([
      'SQL Injection',
      'Internal Server Error',
    ]);
    expect(() => readWapitiReport('{"infos":{}}')).toThrow(/not a wapiti JSON report/);
    expect(() => readWapitiReport('not json')).toThrow();
  });

  it('reads sqlmap verdicts and summarises both', () => {
    expect(readSqlmapOutput('[ERROR] all tested parameters do not appear to be injectable.')).toBe('not injectable');
    expect(
      readSqlmapOutput('sqlmap identified the following injection point(s) with a total of 40 HTTP(s) requests'),
    ).toBe('injectable');
    expect(readSqlmapOutput('[CRITICAL] unable to connect to the target URL')).toBe('inconclusive');
    const lines = summaryLines(readWapitiReport(report), [{ name: 'GET /api/audit', verdict: 'not injectable' }]);
    expect(lines).toContain('| vulnerability | 1 | 0 | 0 | 1 | 0 |');
    expect(lines).toContain('| anomaly | 0 | 1 | 0 | 0 | 0 |');
    expect(lines).toContain('- low HTTP Secure Headers: 1');
    expect(lines).toContain('| GET /api/audit | not injectable |');
    expect(lines.some((l) => l.startsWith('- critical vulnerability "SQL Injection": GET /api/audit kind'))).toBe(true);
  });
});
