import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { API_ROUTES } from './api-routes';
import { buildOpenApiDocument, operationIdOf } from './openapi-document';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import {
  exportedMethodsOf,
  pathTemplateOf,
  routeCoverage,
  routeFilesUnder,
  UNKNOWN_API_PATH_ROUTE,
} from './route-files';

// The CI check of the API's description: the document lists exactly the routes under app/api/ (each
// route.ts, each exported method), every path parameter of a template is described, and the document
// validates as OpenAPI 3.1 against the specification's own JSON Schema.

const APP = path.resolve(__dirname, '../../app');

async function validate(document: Record<string, unknown>) {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(document));
  return { ...result, version: validator.version };
}

describe('the OpenAPI document', () => {
  const document = buildOpenApiDocument() as {
    openapi: string;
    paths: Record<
      string,
      Record<string, { operationId: string; parameters?: Array<{ name: string; in: string; schema: object }> }>
    >;
  };

  it('covers exactly the routes under app/api/ and each method they export', () => {
    const files = routeFilesUnder(APP);
    expect(files.length).toBeGreaterThan(15);
    expect(routeCoverage(files, API_ROUTES)).toEqual({ undocumented: [], withoutRoute: [] });
    const inDocument = Object.entries(document.paths).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => ({ method: m.toUpperCase(), path: p })),
    );
    expect(routeCoverage(files, inDocument)).toEqual({ undocumented: [], withoutRoute: [] });
  });

  it('validates as OpenAPI 3.1', async () => {
    const result = await validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result).toMatchObject({ valid: true, version: '3.1' });
    expect(document.openapi).toBe('3.1.0');
  });

  it('describes every {parameter} of each path template, and only those, as a path parameter', () => {
    for (const [template, operations] of Object.entries(document.paths)) {
      const names = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      for (const [method, operation] of Object.entries(operations)) {
        const inPath = (operation.parameters ?? [])
          .filter((p) => p.in === 'path')
          .map((p) => p.name)
          .sort();
        expect(inPath, `${method} ${template}`).toEqual(names);
      }
    }
  });

  it('gives every operation a unique operationId and every refusal the ApiError body with `field`', () => {
    const ids = Object.values(document.paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(API_ROUTES.length);
    const components = (buildOpenApiDocument() as { components: { schemas: { ApiError: unknown } } }).components;
    expect(components.schemas.ApiError).toEqual({
      type: 'object',
      properties: { error: { type: 'string' }, field: { type: ['string', 'null'] } },
      required: ['error', 'field'],
      additionalProperties: false,
    });
  });

  it('states request schemas as the wire carries them (a path partition is a digit string)', () => {
    const action = document.paths['/api/groups/{groupId}/partitions/{topic}/{partition}/actions']!.post!;
    expect(action.parameters?.find((p) => p.name === 'partition')?.schema).toEqual({
      type: 'string',
      pattern: '^\\d{1,9}$',
    });
  });
});

describe('the checks can fail', () => {
  it('names a route missing from the document and an entry without a route', () => {
    expect(
      routeCoverage(
        [
          { method: 'GET', path: '/api/a' },
          { method: 'POST', path: '/api/b/{id}' },
        ],
        [
          { method: 'GET', path: '/api/a' },
          { method: 'GET', path: '/api/b/{id}' },
        ],
      ),
    ).toEqual({ undocumented: ['POST /api/b/{id}'], withoutRoute: ['GET /api/b/{id}'] });
  });

  it('finds every form of exported method, and ignores other exports', () => {
    const source = `
      export const dynamic = 'force-dynamic';
      export async function GET() {}
      export const POST = async () => new Response();
      async function handler() {}
      export { handler as DELETE };
      function PUT() {}`;
    expect(exportedMethodsOf(source).sort()).toEqual(['DELETE', 'GET', 'POST']);
  });

  it('turns folders into path templates and refuses catch-alls', () => {
    expect(pathTemplateOf('api/groups/[groupId]/partitions/[topic]/[partition]/actions')).toBe(
      '/api/groups/{groupId}/partitions/{topic}/{partition}/actions',
    );
    expect(pathTemplateOf('api/(admin)/openapi.json')).toBe('/api/openapi.json');
    expect(() => pathTemplateOf('api/files/[...rest]')).toThrow(/catch-all/);
  });

  it('skips only the unknown-path catch-all, which answers every method; another catch-all is refused', () => {
    const unknownPath = readFileSync(path.join(APP, UNKNOWN_API_PATH_ROUTE, 'route.ts'), 'utf8');
    expect(exportedMethodsOf(unknownPath).sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);
    expect(routeFilesUnder(APP).some((f) => f.file.includes('['))).toBe(true);
    expect(routeFilesUnder(APP).some((f) => f.file.includes('...'))).toBe(false);

    const app = mkdtempSync(path.join(tmpdir(), 'warden-routes-'));
    const write = (directory: string) => {
      mkdirSync(path.join(app, directory), { recursive: true });
      writeFileSync(path.join(app, directory, 'route.ts'), 'export async function GET() {}\n');
    };
    write(UNKNOWN_API_PATH_ROUTE);
    write('api/groups');
    expect(routeFilesUnder(app).map((f) => `${f.method} ${f.path}`)).toEqual(['GET /api/groups']);
    write('api/files/[...rest]');
    expect(() => routeFilesUnder(app)).toThrow(/catch-all/);
  });

  it('the validator refuses a document that is not OpenAPI 3.1', async () => {
    const broken = buildOpenApiDocument() as { paths: Record<string, Record<string, Record<string, unknown>>> };
    broken.paths['/api/groups']!.get!.parameters = [{ name: 'limit', schema: { type: 'string' } }];
    expect((await validate(broken)).valid).toBe(false);
  });

  it('a route listed twice is refused', () => {
    const route = API_ROUTES[0]!;
    expect(() => buildOpenApiDocument([route, route])).toThrow(/listed twice/);
  });

  it('operation ids follow the path', () => {
    expect(operationIdOf({ method: 'GET', path: '/api/groups/{groupId}/lag' })).toBe('getApiGroupsGroupIdLag');
    expect(operationIdOf({ method: 'GET', path: '/api/openapi.json' })).toBe('getApiOpenapiJson');
    expect(z.string().safeParse(operationIdOf({ method: 'POST', path: '/api/x' })).success).toBe(true);
  });
});
