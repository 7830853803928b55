import { z } from 'zod';
import { ZApiError } from '../schemas/common';
import { SESSION_COOKIE } from '../server/auth/session-token';
import { API_ROUTES, type ApiRoute, type ErrorStatus } from './api-routes';

// The OpenAPI 3.1 document of the API, built from API_ROUTES with zod's own z.toJSONSchema (JSON Schema
// 2020-12, the dialect of OpenAPI 3.1): requests as zod parses them (`io: 'input'`: a path segment or query
// value is the string on the wire, before its transform), responses as the handlers produce them.
// Refinements a JSON Schema cannot state (superRefine: "seek needs exactly one of offset or timestamp") are
// left out of the schema; the 400 they answer is documented like every other.

const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'Invalid input: `field` names the offending parameter or body field',
  401: 'No valid session cookie or bearer token (or, for sign-in, a wrong name or password)',
  403: 'The role is too small, or a cookie-authenticated POST came from another Origin',
  404: 'The group, partition, command or alert does not exist',
  409: 'The state does not allow it now (not quarantined, an action pending, the group has members, ...)',
  413: 'The body is larger than 32 KiB',
  429: 'Too many failed sign-ins for this name from this address; Retry-After says when to try again',
  503: 'The Kafka cluster cannot be reached or refused the write; nothing was changed',
};

type JsonObject = Record<string, unknown>;

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', reused: 'inline' });
  return rest;
}

function parametersOf(schema: z.ZodObject, where: 'path' | 'query'): JsonObject[] {
  const json = jsonSchemaOf(schema, 'input') as { properties?: Record<string, JsonObject>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...propertySchema } = property;
    return {
      name,
      in: where,
      required: where === 'path' || (json.required ?? []).includes(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: propertySchema,
    };
  });
}

/** `GET /api/groups/{groupId}` → `getApiGroupsGroupId`: unique per route, stable for generated clients. */
export function operationIdOf(route: Pick<ApiRoute, 'method' | 'path'>): string {
  const words = route.path
    .split('/')
    .filter((segment) => segment !== '')
    .flatMap((segment) => segment.replace(/[{}]/g, '').split(/[^A-Za-z0-9]+/))
    .filter((word) => word !== '');
  return route.method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

function operationOf(route: ApiRoute): JsonObject {
  const responses: JsonObject = {
    [String(route.success.status)]: {
      description: route.success.description,
      content: { 'application/json': { schema: jsonSchemaOf(route.success.schema, 'output') } },
    },
  };
  for (const status of route.errors) responses[String(status)] = { $ref: `#/components/responses/Error${status}` };
  const parameters = [
    ...(route.params ? parametersOf(route.params, 'path') : []),
    ...(route.query ? parametersOf(route.query, 'query') : []),
  ];
  return {
    operationId: operationIdOf(route),
    summary: route.summary,
    tags: [route.path.split('/')[2] ?? 'api'],
    'x-warden-role': route.access,
    security: route.access === 'open' ? [] : [{ bearerToken: [] }, { sessionCookie: [] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchemaOf(route.body, 'input') } },
          },
        }
      : {}),
    responses,
  };
}

export function buildOpenApiDocument(routes: readonly ApiRoute[] = API_ROUTES): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const route of routes) {
    const operations = (paths[route.path] ??= {});
    const method = route.method.toLowerCase();
    if (operations[method]) throw new Error(`${route.method} ${route.path} is listed twice in API_ROUTES`);
    operations[method] = operationOf(route);
  }
  const statuses = [...new Set(routes.flatMap((r) => r.errors))].sort();
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Warden API',
      version: '1',
      description:
        'Lag, status, capacity advice, quarantines, operator actions, alerts and audit of the Kafka consumer groups ' +
        'Warden samples. Offsets are int64 decimal strings; times are ISO-8601 in UTC. Every error answers ' +
        "`{ error, field }`. A POST with the session cookie must carry the dashboard's own Origin; a bearer " +
        'token needs none. `x-warden-role` is the least role an operation needs.',
    },
    servers: [{ url: '/' }],
    security: [{ bearerToken: [] }, { sessionCookie: [] }],
    paths,
    components: {
      schemas: { ApiError: jsonSchemaOf(ZApiError, 'output') },
      responses: Object.fromEntries(
        statuses.map((status) => [
          `Error${status}`,
          {
            description: ERROR_DESCRIPTIONS[status],
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
          },
        ]),
      ),
      securitySchemes: {
        bearerToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API token from WARDEN_API_TOKENS (name:role:token)',
        },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
      },
    },
  };
}
