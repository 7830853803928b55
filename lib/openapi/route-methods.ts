import { API_ROUTES, type ApiRoute, type HttpMethod } from './api-routes';

// Which methods the API answers at a path, from the same route table the OpenAPI document is built from (its
// coverage test ties that table to the route files), so a known path called with another method is refused
// with 405, an `Allow` header and the error body every refusal uses, not the framework's empty 405.

/** A method the framework answers itself wherever a route exists: HEAD where GET is, OPTIONS everywhere. */
export type AnsweredMethod = HttpMethod | 'HEAD' | 'OPTIONS';

interface Template {
  segments: string[];
  /** Literal segments: a path matching several templates is the most literal one's, as the router decides. */
  literals: number;
  methods: Set<HttpMethod>;
}

function templatesOf(routes: readonly ApiRoute[]): Template[] {
  const byPath = new Map<string, Template>();
  for (const route of routes) {
    let template = byPath.get(route.path);
    if (!template) {
      const segments = route.path.split('/').slice(1);
      template = { segments, literals: segments.filter((s) => !s.startsWith('{')).length, methods: new Set() };
      byPath.set(route.path, template);
    }
    template.methods.add(route.method);
  }
  return [...byPath.values()].sort((a, b) => b.literals - a.literals);
}

const API_TEMPLATES = templatesOf(API_ROUTES);

function matches(template: Template, segments: string[]): boolean {
  return (
    template.segments.length === segments.length &&
    template.segments.every((s, i) => (s.startsWith('{') ? segments[i] !== '' : s === segments[i]))
  );
}

/**
 * The methods answered at `pathname` (as the request has it, still percent-encoded, so an encoded `/` stays
 * inside its segment), or null when no route has that path (the unknown-path route answers 404 there).
 */
export function methodsAt(pathname: string, routes: readonly ApiRoute[] = API_ROUTES): AnsweredMethod[] | null {
  const segments = pathname.split('/').slice(1);
  const template = (routes === API_ROUTES ? API_TEMPLATES : templatesOf(routes)).find((t) => matches(t, segments));
  if (!template) return null;
  const methods: AnsweredMethod[] = [...template.methods];
  if (template.methods.has('GET')) methods.push('HEAD');
  methods.push('OPTIONS');
  return methods;
}
