import { ZGroupsQuery, type TGroupsQueryInput } from '@/lib/schemas/groups';

// The overview's state lives in its URL (a link can be shared, Back restores it) with the same names and
// values as GET /api/groups takes, so the page's query string is the API's query string. A parameter the API
// would refuse (hand-edited, or from an older link) is dropped, not sent: the page shows the default for it.

const KEYS = ['cluster', 'status', 'q', 'sort', 'order', 'page', 'pageSize'] as const;

/** The overview's query from its URL's search parameters, keeping only the parameters the API accepts. */
export function overviewQueryFromSearch(search: URLSearchParams): TGroupsQueryInput {
  const query: Record<string, string> = {};
  for (const key of KEYS) {
    const value = search.get(key);
    if (value === null || value === '') continue;
    if (ZGroupsQuery.safeParse({ [key]: value }).success) query[key] = value;
  }
  return query as TGroupsQueryInput;
}

/** The query as search parameters, in a fixed order and without empty parts (the page's URL and the API call). */
export function overviewSearch(query: TGroupsQueryInput): string {
  const params = new URLSearchParams();
  for (const key of KEYS) {
    const value = query[key];
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  return params.toString();
}

/**
 * The query after a change of `patch`: a change of anything but the page goes back to page 1 (the rows
 * before it are different ones), and a value equal to the default is removed, so the URL names only choices.
 */
export function withOverviewChange(query: TGroupsQueryInput, patch: Partial<TGroupsQueryInput>): TGroupsQueryInput {
  const next: Record<string, string | undefined> = { ...query, ...patch };
  if (!('page' in patch)) delete next.page;
  if (next.page === '1') delete next.page;
  if (next.sort === 'worst') delete next.sort;
  if (next.order === 'natural') delete next.order;
  for (const key of KEYS) if (next[key] === undefined || next[key] === '') delete next[key];
  return next as TGroupsQueryInput;
}
