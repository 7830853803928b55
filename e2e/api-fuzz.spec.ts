import fc from 'fast-check';
import type { Admin } from 'kafkajs';
import pg from 'pg';
import { expect, test } from '@playwright/test';
import { loadTestConfig } from '../test-support/test-config';
import { API_ROUTES, type ApiRoute } from '../lib/openapi/api-routes';
import { buildOpenApiDocument } from '../lib/openapi/openapi-document';
import { ZApiError } from '../lib/schemas/common';
import { committedOffsets, testKafka, uniqueName } from '../test-support/integration';
import { arbitraryOf, hostileString, type JsonSchema } from '../test-support/json-schema-arbitrary';
import { OPERATOR, OPERATOR_TOKEN, VIEWER, VIEWER_TOKEN } from '../test-support/credentials';
import { createTopicWhenReady } from './support';

// A property-based fuzz test of every endpoint in the OpenAPI document, against the production server
// (`next start`) with its real database and broker. For each route: RUNS_PER_ROUTE requests with generated
// callers (none, bad token, viewer and operator by token and by cookie, a wrong Origin), path parameters
// (the fixtures below, schema-shaped and hostile strings), query strings and bodies (schema-shaped, one field
// broken, an unknown field, any JSON, not JSON, too large). Every answer must be below 500, a status the
// document lists for the route, of the documented shape (ApiError for a refusal, the success schema
// otherwise), and a refusal must change nothing: the tables an API request can write, and the fixture
// group's committed offsets on the broker, are compared before and after. The only rows a refusal may add
// are the audit of refused attempts the API documents: failed sign-ins and rejected operator actions.
// Seeded (WARDEN_FUZZ_SEED, printed); a failure names the request and the seed to replay it.

const RUNS_PER_ROUTE = 40;
const { WARDEN_FUZZ_SEED: SEED, UI_PORT } = loadTestConfig();
const baseUrl = `http://127.0.0.1:${UI_PORT}`;
const document = buildOpenApiDocument() as {
  paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string; schema: JsonSchema }> }>>;
};

const groupId = uniqueName('e2e-fuzz');
const topic = `${groupId}-orders`;
/** A group with no members and committed offsets: a valid offset reset can succeed on it. */
const resetGroup = `${groupId}-reset`;
const alertId = `${groupId}-alert`;

let db: pg.Client;
let admin: Admin;
/** A pending command's id, so GET /api/commands/{id} has one to find. */
let commandId = '1';
/** A record loss of the fixture group, so its acknowledgement has one to find. */
let lossId = '1';

test.beforeAll(async () => {
  db = new pg.Client({ connectionString: loadTestConfig().DATABASE_URL });
  await db.connect();
  admin = testKafka('warden-e2e-fuzz').admin();
  await admin.connect();
  await createTopicWhenReady(admin, topic, 2);
  await admin.setOffsets({
    groupId: resetGroup,
    topic,
    partitions: [0, 1].map((p) => ({ partition: p, offset: '0' })),
  });
  for (const group of [groupId, resetGroup]) {
    for (const partition of [0, 1]) {
      await db.query(
        `INSERT INTO lag_sample (sampled_at, group_id, topic, partition, committed_offset, log_start_offset,
           log_end_offset, lag, group_state) VALUES (now(), $1, $2, $3, 0, 0, 0, 0, 'Empty')`,
        [group, topic, partition],
      );
    }
  }
  await db.query(
    `INSERT INTO partition_quarantine (group_id, topic, partition, "offset", reason, error_class, since,
       held_since, failures, attempts, record_headers)
     VALUES ($1, $2, 0, 0, 'e2e: fuzz fixture', 'schema', now(), now(), 1, 0, '{}')`,
    [groupId, topic],
  );
  await db.query(
    `INSERT INTO alert (id, key, condition, group_id, phase, severity, active_since, firing_since, summary, reasons,
       updated_at)
     VALUES ($1, $2, 'partition-quarantined', $3, 'firing', 'critical', now(), now(), 'e2e: fuzz fixture', '[]', now())`,
    [alertId, `partition-quarantined:${groupId}`, groupId],
  );
  const action = await db.query<{ id: string }>(
    `INSERT INTO operator_action (group_id, topic, partition, action, reason, requested_by, status)
     VALUES ($1, $2, 1, 'resume', 'e2e: fuzz fixture', 'e2e', 'done') RETURNING id::text`,
    [groupId, topic],
  );
  commandId = action.rows[0]!.id;
  const loss = await db.query<{ id: string }>(
    `INSERT INTO record_loss (cluster, group_id, topic, partition, from_offset, to_offset, count, basis, detected_at,
       updated_at)
     VALUES ('default', $1, $2, 1, 10, 19, 10, 'below-log-start', now(), now()) RETURNING id::text`,
    [groupId, topic],
  );
  lossId = loss.rows[0]!.id;
});

test.afterAll(async () => {
  for (const table of [
    'operator_action',
    'partition_quarantine',
    'lag_sample',
    'alert_silence',
    'advice_prediction',
    'record_loss',
  ])
    await db?.query(`DELETE FROM ${table} WHERE group_id = ANY($1)`, [[groupId, resetGroup]]);
  await db?.query(`DELETE FROM alert WHERE id = $1`, [alertId]);
  await db?.end();
  await admin?.disconnect();
});

// --- state a request could change ---------------------------------------------------------------------------

/**
 * What an API request can write, as one comparable string. Sessions by id only (a request may move its own
 * session's last-seen time); the audit of refused sign-ins and of rejected operator actions is left out,
 * since writing it is what the API documents for a refusal.
 */
async function stateFingerprint(): Promise<string> {
  const tables: Record<string, string> = {
    operator_action: `SELECT * FROM operator_action WHERE status <> 'rejected'`,
    partition_quarantine: `SELECT * FROM partition_quarantine`,
    alert: `SELECT id, phase, acknowledged_by, acknowledged_at FROM alert`,
    alert_acknowledgement: `SELECT * FROM alert_acknowledgement`,
    alert_silence: `SELECT * FROM alert_silence`,
    record_loss: `SELECT * FROM record_loss`,
    dashboard_session: `SELECT id_hash FROM dashboard_session`,
    access_event: `SELECT * FROM access_event WHERE kind NOT IN ('sign-in-failed', 'sign-in-rate-limited')`,
    advice_prediction: `SELECT * FROM advice_prediction`,
    // A refused redrive is kept as a rejected job (its audit record); nothing else may change.
    redrive_job: `SELECT * FROM redrive_job WHERE status <> 'rejected'`,
    redriven_record: `SELECT * FROM redriven_record`,
  };
  const parts: string[] = [];
  for (const [name, sql] of Object.entries(tables)) {
    const { rows } = await db.query<{ n: string; digest: string | null }>(
      `SELECT count(*)::text AS n, md5(string_agg(t::text, '|' ORDER BY t::text)) AS digest FROM (${sql}) t`,
    );
    parts.push(`${name}:${rows[0]!.n}:${rows[0]!.digest ?? ''}`);
  }
  const offsets = await committedOffsets(admin, resetGroup, topic);
  return [...parts, `offsets:${[...offsets].map(([p, o]) => `${p}=${o}`).join(',')}`].join('\n');
}

// --- callers ----------------------------------------------------------------------------------------------

type Caller = 'none' | 'bad-token' | 'viewer-token' | 'operator-token' | 'viewer-cookie' | 'operator-cookie';
const cookies = new Map<'viewer' | 'operator', string>();

/** A session cookie of the user, signed in through the API once and again after a sign-out ended it. */
async function sessionCookie(role: 'viewer' | 'operator'): Promise<string> {
  const known = cookies.get(role);
  if (known) return known;
  const user = role === 'viewer' ? VIEWER : OPERATOR;
  const response = await fetch(`${baseUrl}/api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ name: user.name, password: user.password }),
  });
  expect(response.status, `sign-in of ${user.name}`).toBe(200);
  const cookie = /^(warden_session=[^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
  if (!cookie) throw new Error(`sign-in of ${user.name} set no session cookie`);
  cookies.set(role, cookie);
  return cookie;
}

async function headersOf(caller: Caller, origin: 'own' | 'other' | 'none'): Promise<Record<string, string>> {
  const headers: Record<string, string> = {};
  if (origin === 'own') headers.origin = baseUrl;
  if (origin === 'other') headers.origin = 'https://evil.example';
  if (caller === 'bad-token') headers.authorization = 'Bearer not-a-token';
  if (caller === 'viewer-token') headers.authorization = `Bearer ${VIEWER_TOKEN}`;
  if (caller === 'operator-token') headers.authorization = `Bearer ${OPERATOR_TOKEN}`;
  if (caller === 'viewer-cookie') headers.cookie = await sessionCookie('viewer');
  if (caller === 'operator-cookie') headers.cookie = await sessionCookie('operator');
  return headers;
}

const callerArbitrary = fc.record({
  caller: fc.constantFrom<Caller>(
    'none',
    'bad-token',
    'viewer-token',
    'operator-token',
    'operator-token',
    'viewer-cookie',
    'operator-cookie',
    'operator-cookie',
  ),
  origin: fc.constantFrom<'own' | 'other' | 'none'>('own', 'own', 'own', 'other', 'none'),
});

// --- inputs -------------------------------------------------------------------------------------------------

/** Values that name the fixtures, so generated requests reach the checks behind "not found". */
const FIXTURE_PARAMS: Record<string, () => string[]> = {
  groupId: () => [groupId, resetGroup],
  topic: () => [topic],
  partition: () => ['0', '1'],
  id: () => [alertId, commandId],
  lossId: () => [lossId],
};

/** Percent-encoded; a lone surrogate (which no URL can carry) becomes U+FFFD first, as a browser does. */
const encodeSegment = (value: string) => encodeURIComponent(value.replace(/\p{Cs}/gu, '\uFFFD'));

/**
 * A path segment: never empty, "." or ".." (nor "%2E%2E"), which address another path (the URL parser removes dot
 * segments, and Next.js redirects "//"), not this route with an odd parameter.
 */
function pathSegmentArbitrary(name: string, schema: JsonSchema): fc.Arbitrary<string> {
  return pathSegmentCandidates(name, schema).filter((s) => s !== '' && s !== '.' && s !== '..');
}

function pathSegmentCandidates(name: string, schema: JsonSchema): fc.Arbitrary<string> {
  const fixtures = FIXTURE_PARAMS[name]?.() ?? [];
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fixtures.length > 0 ? fc.constantFrom(...fixtures) : (arbitraryOf(schema) as fc.Arbitrary<string>),
    },
    { weight: 2, arbitrary: (arbitraryOf(schema) as fc.Arbitrary<string>).map(encodeSegment) },
    { weight: 2, arbitrary: hostileString.map(encodeSegment) },
    // Raw: escapes that do not decode, and encoded slashes and dots, as a careless client sends them.
    { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '%2F', 'a%2Fb') },
  );
}

function queryArbitrary(parameters: Array<{ name: string; schema: JsonSchema }>): fc.Arbitrary<string> {
  const valid = fc.record(
    Object.fromEntries(parameters.map((p) => [p.name, arbitraryOf(p.schema) as fc.Arbitrary<string>])),
    { requiredKeys: [] },
  );
  const hostileValues = fc.dictionary(
    fc.oneof(fc.constantFrom(...parameters.map((p) => p.name), 'unknown', ''), fc.string({ maxLength: 8 })),
    hostileString,
    { maxKeys: 4 },
  );
  return fc
    .oneof(
      { weight: 3, arbitrary: valid.map((q) => Object.entries(q as Record<string, string>)) },
      { weight: 2, arbitrary: hostileValues.map((q) => Object.entries(q)) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(valid, hostileValues)
          .map(([q, h]) => [...Object.entries(q as Record<string, string>), ...Object.entries(h)]),
      },
    )
    .map((entries) => new URLSearchParams(entries).toString());
}

/** The raw body text and its content type; undefined sends none. */
type Body = { text: string; contentType: string } | undefined;

function bodyArbitrary(route: ApiRoute): fc.Arbitrary<Body> {
  const json = (value: unknown): Body => ({ text: JSON.stringify(value), contentType: 'application/json' });
  const random = fc.oneof(
    fc.jsonValue().map(json),
    fc.string({ maxLength: 40 }).map((text) => ({ text, contentType: 'application/json' })),
    fc.constant<Body>(undefined),
    fc.constant<Body>({ text: 'x'.repeat(40 * 1024), contentType: 'application/json' }),
    fc.constant<Body>({ text: 'name=a&password=b', contentType: 'application/x-www-form-urlencoded' }),
  );
  if (!route.body) return random;
  const schema = (
    document.paths[route.path]![route.method.toLowerCase()] as {
      requestBody: { content: { 'application/json': { schema: JsonSchema } } };
    }
  ).requestBody.content['application/json'].schema;
  const valid = arbitraryOf(schema) as fc.Arbitrary<Record<string, unknown>>;
  const fieldNames = Object.keys(schema.properties ?? {});
  const oneFieldBroken = fc
    .tuple(
      valid,
      fc.constantFrom(...(fieldNames.length > 0 ? fieldNames : ['x'])),
      fc.oneof(fc.jsonValue(), hostileString),
    )
    .map(([body, field, value]) => ({ ...body, [field]: value }));
  const unknownField = valid.map((body) => ({ ...body, unexpected: true }));
  const withFixtures = valid.map((body) =>
    'groupId' in body && body.groupId !== null ? { ...body, groupId } : 'topic' in body ? { ...body, topic } : body,
  );
  const variants = [
    { weight: 4, arbitrary: valid.map(json) },
    { weight: 2, arbitrary: withFixtures.map(json) },
    { weight: 2, arbitrary: oneFieldBroken.map(json) },
    { weight: 1, arbitrary: unknownField.map(json) },
    { weight: 2, arbitrary: random },
  ];
  // Sign-in: the real users' passwords only unchanged, so no generated failure counts against their limit.
  if (route.path === '/api/auth/sign-in') {
    variants.push({
      weight: 1,
      arbitrary: fc.constantFrom(OPERATOR, VIEWER).map((u) => json({ name: u.name, password: u.password })),
    });
  }
  return fc.oneof(...variants);
}

function requestArbitrary(route: ApiRoute) {
  const parameters = document.paths[route.path]![route.method.toLowerCase()]!.parameters ?? [];
  const inPath = parameters.filter((p) => p.in === 'path');
  const inQuery = parameters.filter((p) => p.in === 'query');
  return fc.record({
    who: callerArbitrary,
    segments: fc.record(Object.fromEntries(inPath.map((p) => [p.name, pathSegmentArbitrary(p.name, p.schema)]))),
    query: inQuery.length > 0 ? queryArbitrary(inQuery) : fc.oneof(fc.constant(''), queryArbitrary([])),
    body: route.method === 'GET' ? fc.constant<Body>(undefined) : bodyArbitrary(route),
  });
}

// --- the property -----------------------------------------------------------------------------------------

let requestsSent = 0;
/** How often each status answered, for the closing line: the fuzz must reach successes, not only refusals. */
const statusCounts = new Map<number, number>();

for (const [index, route] of API_ROUTES.entries()) {
  test(`fuzz: ${route.method} ${route.path}`, async () => {
    const seed = SEED + index;
    console.log(`api fuzz ${route.method} ${route.path}: seed ${seed}, ${RUNS_PER_ROUTE} requests`);
    const documented = new Set([route.success.status, ...route.errors]);
    await fc.assert(
      fc.asyncProperty(requestArbitrary(route), async ({ who, segments, query, body }) => {
        const url =
          baseUrl +
          route.path.replace(/\{([^}]+)\}/g, (_, name: string) => (segments as Record<string, string>)[name]!) +
          (query ? `?${query}` : '');
        const headers = await headersOf(who.caller, who.origin);
        if (body) headers['content-type'] = body.contentType;
        const before = await stateFingerprint();
        const response = await fetch(url, { method: route.method, headers, body: body?.text, redirect: 'manual' });
        requestsSent++;
        statusCounts.set(response.status, (statusCounts.get(response.status) ?? 0) + 1);
        const text = await response.text();
        const what = `${route.method} ${url} as ${who.caller} (origin ${who.origin}) body ${body?.text.slice(0, 300)} → ${response.status} ${text.slice(0, 300)}`;
        expect(response.status, what).toBeLessThan(500);
        expect(documented.has(response.status as never), `undocumented status: ${what}`).toBe(true);
        const json = JSON.parse(text) as unknown;
        if (response.status >= 400) {
          expect(ZApiError.strict().safeParse(json).success, `error body shape: ${what}`).toBe(true);
          expect(await stateFingerprint(), `a refused request changed state: ${what}`).toBe(before);
        } else {
          const parsed = route.success.schema.safeParse(json);
          expect(parsed.error?.issues ?? [], `success body shape: ${what}`).toEqual([]);
          // A sign-out ends the fuzz's own session: sign in again at its next use.
          if (route.path.startsWith('/api/auth/sign-out')) {
            if (who.caller === 'viewer-cookie') cookies.delete('viewer');
            if (who.caller === 'operator-cookie') cookies.delete('operator');
            if (route.path.endsWith('-all')) cookies.delete(who.caller === 'viewer-cookie' ? 'viewer' : 'operator');
          }
        }
      }),
      { seed, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
    );
  });
}

type Who = { caller: Caller; origin: 'own' | 'other' | 'none' };

/**
 * Sends `method` to `url` as `who` (a small JSON body unless GET or HEAD) and counts it, with the state
 * fingerprint from just before, so the caller can check that a refusal changed nothing.
 */
async function sendRaw(url: string, method: string, who: Who) {
  const headers = await headersOf(who.caller, who.origin);
  const before = await stateFingerprint();
  const body = ['GET', 'HEAD'].includes(method) ? undefined : '{"action":"skip"}';
  if (body) headers['content-type'] = 'application/json';
  const response = await fetch(url, { method, headers, body, redirect: 'manual' });
  requestsSent++;
  statusCounts.set(response.status, (statusCounts.get(response.status) ?? 0) + 1);
  const text = await response.text();
  const what = `${method} ${url} as ${who.caller} (origin ${who.origin}) → ${response.status} ${text.slice(0, 300)}`;
  return { response, text, before, what, signedIn: who.caller !== 'none' && who.caller !== 'bad-token' };
}

/** The proxy's Origin rule: an unsafe method from another origin, or from none without a bearer token, is a 403. */
function originRefused(method: string, who: Who): boolean {
  const unsafe = !['GET', 'HEAD', 'OPTIONS'].includes(method);
  return unsafe && (who.origin === 'other' || (who.origin === 'none' && !who.caller.endsWith('-token')));
}

// Paths no route names, under the API's prefixes (also below a real route), with every method: a signed-in
// caller gets 404 with the error body (HEAD: 404 and no body) unless the proxy refuses the request first (401
// not signed in, 403 an unsafe method from another origin); nothing changes.
/** A lone surrogate has no UTF-8 form, so no client can put it in a URL (encodeURIComponent throws). */
function encodable(segment: string): boolean {
  try {
    encodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

const UNKNOWN_PREFIXES = ['/api', '/api/groups/g/lag', `/api/groups/${groupId}/partitions/${topic}/0/records`];
const unknownSegment = fc.oneof(
  fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/),
  hostileString.filter((s) => s !== '' && !/[/?#%]/.test(s) && s !== '.' && s !== '..' && encodable(s)),
);

test('fuzz: unknown /api paths answer 404 with the error body, for every method', async () => {
  const seed = SEED + API_ROUTES.length;
  console.log(`api fuzz unknown paths: seed ${seed}, ${RUNS_PER_ROUTE} requests`);
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        who: callerArbitrary,
        method: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
        prefix: fc.constantFrom(...UNKNOWN_PREFIXES),
        segments: fc.array(unknownSegment, { minLength: 1, maxLength: 3 }),
      }),
      async ({ who, method, prefix, segments }) => {
        const url = `${baseUrl}${prefix}/zz-${segments.map(encodeURIComponent).join('/')}`;
        const { response, text, before, what, signedIn } = await sendRaw(url, method, who);
        // The proxy decides before any route: identity (401), then Origin for an unsafe method (403), and only
        // then the unknown path (404).
        const refusedOrigin = originRefused(method, who);
        expect(response.status, what).toBe(!signedIn ? 401 : refusedOrigin ? 403 : 404);
        expect(response.headers.get('content-type') ?? '', what).toMatch(/^application\/json/);
        if (method === 'HEAD') expect(text, what).toBe('');
        else {
          const parsed = ZApiError.strict().safeParse(JSON.parse(text));
          expect(parsed.success, `error body shape: ${what}`).toBe(true);
          if (signedIn && !refusedOrigin) expect(parsed.data?.error, what).toContain(`no API route ${method}`);
        }
        expect(await stateFingerprint(), `an unknown path changed state: ${what}`).toBe(before);
      },
    ),
    { seed, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
  );
});

// Every known path with each method it does not answer, as every kind of caller: after the proxy's identity
// (401) and Origin (403) checks, 405 with an Allow header naming the methods it does answer and the error body
// (HEAD: no body); nothing changes. The sign-in and sign-out routes need no identity, so 405 comes first there.
const ANY_METHOD = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const wrongMethods = [...new Set(API_ROUTES.map((r) => r.path))].flatMap((template) => {
  const allow: string[] = API_ROUTES.filter((r) => r.path === template).map((r) => r.method);
  if (allow.includes('GET')) allow.push('HEAD');
  allow.push('OPTIONS');
  return ANY_METHOD.filter((m) => !allow.includes(m)).map((method) => ({ template, method, allow: allow.join(', ') }));
});

test('fuzz: a known /api path with a method it does not answer is refused with 405, Allow and the error body', async () => {
  const seed = SEED + API_ROUTES.length + 1;
  console.log(`api fuzz wrong methods: seed ${seed}, ${RUNS_PER_ROUTE} requests over ${wrongMethods.length} pairs`);
  await fc.assert(
    fc.asyncProperty(
      fc.record({ who: callerArbitrary, target: fc.constantFrom(...wrongMethods) }),
      async ({ who, target: { template, method, allow } }) => {
        const path = template.replace(/\{(\w+)\}/g, (_, name: string) =>
          encodeSegment(FIXTURE_PARAMS[name]?.()[0] ?? 'x'),
        );
        const url = `${baseUrl}${path}`;
        const { response, text, before, what, signedIn } = await sendRaw(url, method, who);
        const open = template === '/api/auth/sign-in' || template === '/api/auth/sign-out';
        const expected = open ? 405 : !signedIn ? 401 : originRefused(method, who) ? 403 : 405;
        expect(response.status, what).toBe(expected);
        if (expected === 405) expect(response.headers.get('allow'), what).toBe(allow);
        expect(response.headers.get('content-type') ?? '', what).toMatch(/^application\/json/);
        if (method === 'HEAD') expect(text, what).toBe('');
        else {
          const parsed = ZApiError.strict().safeParse(JSON.parse(text));
          expect(parsed.success, `error body shape: ${what}`).toBe(true);
          if (expected === 405) expect(parsed.data?.error, what).toContain(`${method} is not allowed on ${path}`);
        }
        expect(await stateFingerprint(), `a refused method changed state: ${what}`).toBe(before);
      },
    ),
    { seed, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
  );
});

test.afterAll(() => {
  const statuses = [...statusCounts].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`);
  console.log(
    `api fuzz: ${requestsSent} requests over ${API_ROUTES.length} operations (seed ${SEED}); ${statuses.join(', ')}`,
  );
});
