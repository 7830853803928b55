import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import type { HttpMethod } from './api-routes';

// The routes that really exist: every app/api/**/route.ts and each HTTP method it exports, read with the
// TypeScript parser (not a regex), so `export async function GET`, `export const POST = ...` and
// `export { handler as PATCH }` all count. Used by the CI check that the OpenAPI document covers exactly these.

const METHODS: readonly string[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

/**
 * The one catch-all the API has: every path no route names answers 404 with the error body. It describes no
 * operation, so it is not a route here; any other catch-all directory still fails `pathTemplateOf`.
 */
export const UNKNOWN_API_PATH_ROUTE = path.join('api', '[...unknownPath]');

export interface RouteFile {
  /** Relative to the app directory's parent, e.g. `app/api/groups/[groupId]/route.ts`. */
  file: string;
  method: HttpMethod | 'HEAD' | 'OPTIONS';
  /** The OpenAPI path template: `/api/groups/{groupId}`. */
  path: string;
}

/** `api/groups/[groupId]/lag` → `/api/groups/{groupId}/lag`; route groups `(name)` vanish; catch-alls are refused. */
export function pathTemplateOf(directory: string): string {
  const segments = directory.split(/[\\/]/).filter((s) => s !== '' && !/^\(.+\)$/.test(s));
  return (
    '/' +
    segments
      .map((segment) => {
        if (segment.startsWith('[...') || segment.startsWith('[[')) {
          throw new Error(`${directory}: catch-all segments have no OpenAPI path template; name each route`);
        }
        const dynamic = /^\[([A-Za-z_][A-Za-z0-9_]*)\]$/.exec(segment);
        return dynamic ? `{${dynamic[1]}}` : segment;
      })
      .join('/')
  );
}

/** The HTTP methods a route module exports. */
export function exportedMethodsOf(source: string, fileName = 'route.ts'): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const names: string[] = [];
  const isExported = (node: ts.Node) =>
    ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const statement of file.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name && isExported(statement)) {
      names.push(statement.name.text);
    } else if (ts.isVariableStatement(statement) && isExported(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name)) names.push(declaration.name.text);
      }
    } else if (
      ts.isExportDeclaration(statement) &&
      statement.exportClause &&
      ts.isNamedExports(statement.exportClause)
    ) {
      for (const element of statement.exportClause.elements) names.push(element.name.text);
    }
  }
  return names.filter((name) => METHODS.includes(name));
}

/** Every route file under `appDirectory`/api with its exported methods, sorted by path then method. */
export function routeFilesUnder(appDirectory: string): RouteFile[] {
  const root = path.join(appDirectory, 'api');
  const found: RouteFile[] = [];
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/^route\.(ts|tsx|js|mjs)$/.test(entry.name)) continue;
    const full = path.join(entry.parentPath, entry.name);
    const directory = path.relative(appDirectory, entry.parentPath);
    if (directory === UNKNOWN_API_PATH_ROUTE) continue;
    const file = path.relative(path.dirname(appDirectory), full);
    for (const method of exportedMethodsOf(readFileSync(full, 'utf8'), entry.name)) {
      found.push({ file, method: method as RouteFile['method'], path: pathTemplateOf(directory) });
    }
  }
  return found.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

/** What the registry lacks (a route nobody documented) and what it has too much (an entry with no route). */
export function routeCoverage(
  files: ReadonlyArray<Pick<RouteFile, 'method' | 'path'>>,
  documented: ReadonlyArray<{ method: string; path: string }>,
): { undocumented: string[]; withoutRoute: string[] } {
  const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;
  const inFiles = new Set(files.map(key));
  const inDocument = new Set(documented.map(key));
  return {
    undocumented: [...inFiles].filter((k) => !inDocument.has(k)).sort(),
    withoutRoute: [...inDocument].filter((k) => !inFiles.has(k)).sort(),
  };
}
