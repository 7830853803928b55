import { formatCount } from '@/lib/format';
import type { TGroupSort, TGroupsQuery, TGroupStatus, TGroupStatusCounts } from '@/lib/schemas/groups';
import {
  CLUSTER_NAME_PATTERN,
  GROUP_FILTER_MAX_CHARS,
  GROUP_SORT_KEYS,
  GROUP_STATUSES,
  MAX_GROUPS_OFFSET,
  oneOf,
  SORT_ORDERS,
} from '@/lib/schemas/values';

// The overview's view (the URL of `/`) and the GET /api/groups request it makes: one pure mapping, so the
// server render (app/page.tsx) prefetches exactly the page the client's first query asks for.

/** Rows per page of the overview. */
export const OVERVIEW_PAGE_SIZE = 100;

/** The longest name filter GET /api/groups accepts (a group id is at most 249 characters). */
export const MAX_FILTER_LENGTH = GROUP_FILTER_MAX_CHARS;

/** The overview's URL parameters; each one absent means its default. */
export const OVERVIEW_PARAMS = ['q', 'status', 'cluster', 'sort', 'order', 'page'] as const;

export type TOverviewOrder = 'natural' | 'reversed';

export interface OverviewView {
  /** The name filter as typed (the request trims it). */
  q: string;
  status: 'all' | TGroupStatus;
  /** A configured cluster's name, or 'all'. */
  cluster: string;
  sort: TGroupSort;
  order: TOverviewOrder;
  /** 1-based. */
  page: number;
}

export const DEFAULT_OVERVIEW_VIEW: Readonly<OverviewView> = {
  q: '',
  status: 'all',
  cluster: 'all',
  sort: 'worst',
  order: 'natural',
  page: 1,
};

/** GET /api/groups's query for one view: only the parameters that differ from the API's defaults. */
export type OverviewRequest = TGroupsQuery & { cluster?: string };

/** What the view reads of a query string: URLSearchParams, Next's ReadonlyURLSearchParams. */
export interface ParamSource {
  get(name: string): string | null;
}

// The API's own limits (lib/schemas/values.ts), checked without its zod schema so the browser can read a URL
// while the page starts; a unit test holds these checks equal to what GET /api/groups accepts.
const isStatus = oneOf<TGroupStatus>(GROUP_STATUSES);
const isSort = oneOf<TGroupSort>(GROUP_SORT_KEYS);
const isOrder = oneOf<TOverviewOrder>(SORT_ORDERS);

/** A page whose offset GET /api/groups accepts. */
function acceptedPage(value: string): number | null {
  if (!/^[1-9]\d{0,6}$/.test(value)) return null;
  const page = Number(value);
  return (page - 1) * OVERVIEW_PAGE_SIZE <= MAX_GROUPS_OFFSET ? page : null;
}

/**
 * The view a URL holds. A value the API would refuse, or a cluster not configured (a hand-edited or outdated
 * link), reads as its default, so the page shows the nearest view it can instead of a refusal.
 */
export function overviewView(params: ParamSource, clusters: readonly string[]): OverviewView {
  const given = (name: (typeof OVERVIEW_PARAMS)[number]) => params.get(name) ?? '';
  const q = given('q');
  const status = given('status');
  const cluster = given('cluster');
  const sort = given('sort');
  const order = given('order');
  return {
    q: q.trim().length <= GROUP_FILTER_MAX_CHARS ? q : DEFAULT_OVERVIEW_VIEW.q,
    status: isStatus(status) ? status : DEFAULT_OVERVIEW_VIEW.status,
    cluster: CLUSTER_NAME_PATTERN.test(cluster) && clusters.includes(cluster) ? cluster : DEFAULT_OVERVIEW_VIEW.cluster,
    sort: isSort(sort) ? sort : DEFAULT_OVERVIEW_VIEW.sort,
    order: isOrder(order) ? order : DEFAULT_OVERVIEW_VIEW.order,
    page: acceptedPage(given('page')) ?? DEFAULT_OVERVIEW_VIEW.page,
  };
}

/** Next's `searchParams` prop as a ParamSource: a repeated parameter reads as its first value, as URLSearchParams does. */
export function paramsOfRecord(record: Record<string, string | string[] | undefined>): ParamSource {
  return {
    get: (name) => {
      const value = record[name];
      return (Array.isArray(value) ? value[0] : value) ?? null;
    },
  };
}

/** The API request of a view: one page of OVERVIEW_PAGE_SIZE groups; default values are left out. */
export function overviewRequest(view: OverviewView): OverviewRequest {
  const request: OverviewRequest = {};
  if (view.cluster !== 'all') request.cluster = view.cluster;
  const needle = view.q.trim();
  if (needle !== '') request.q = needle;
  if (view.status !== 'all') request.status = view.status;
  if (view.sort !== 'worst') request.sort = view.sort;
  if (view.order !== 'natural') request.order = view.order;
  request.limit = OVERVIEW_PAGE_SIZE;
  if (view.page > 1) request.offset = (view.page - 1) * OVERVIEW_PAGE_SIZE;
  return request;
}

/** GET /api/groups's URL for a request, its parameters in one fixed order. */
export function groupsApiPath(request: OverviewRequest): string {
  const params = new URLSearchParams();
  for (const name of ['cluster', 'q', 'status', 'sort', 'order', 'limit', 'offset'] as const) {
    const value = request[name];
    if (value !== undefined) params.set(name, String(value));
  }
  const search = params.toString();
  return search === '' ? '/api/groups' : `/api/groups?${search}`;
}

/**
 * The view after a change, and how the browser's history takes it: a page of its own (Back returns to the
 * page before) for a move to another page, in place of the current entry for any other change. Any change
 * but the page's starts again on page 1: the old page number means nothing in another filter or order.
 */
export function changeOverviewView(
  view: OverviewView,
  change: Partial<OverviewView>,
): { view: OverviewView; history: 'push' | 'replace' } {
  const next: OverviewView = { ...view, ...change };
  const refiltered = (Object.keys(change) as Array<keyof OverviewView>).some(
    (name) => name !== 'page' && change[name] !== view[name],
  );
  if (refiltered) return { view: { ...next, page: DEFAULT_OVERVIEW_VIEW.page }, history: 'replace' };
  return { view: next, history: next.page === view.page ? 'replace' : 'push' };
}

/** `search` (a URL's query string) holding `view`: its non-default values; other parameters are kept. */
export function searchWithView(search: string, view: OverviewView): string {
  const params = new URLSearchParams(search);
  for (const name of OVERVIEW_PARAMS) {
    const value = String(view[name]);
    if (value === String(DEFAULT_OVERVIEW_VIEW[name])) params.delete(name);
    else params.set(name, value);
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * How many groups the view shows, of how many, in words: `total` matches every filter; `counts` every filter
 * but the status, so with a status chosen their sum is what the other statuses would add.
 */
export function groupsShownText(view: OverviewView, total: number, counts: TGroupStatusCounts): string {
  const needle = view.q.trim();
  if (view.status === 'all') {
    const groups = `${formatCount(total)} group${total === 1 ? '' : 's'}`;
    return needle === '' ? groups : `${groups} match${total === 1 ? 'es' : ''} “${needle}”`;
  }
  const scope = GROUP_STATUSES.reduce((sum, s) => sum + counts[s], 0);
  const groups = `${formatCount(total)} of ${formatCount(scope)} group${scope === 1 ? '' : 's'}`;
  return needle === '' ? groups : `${groups} matching “${needle}”`;
}
