import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ZClusterName } from '@/lib/schemas/clusters';
import { ZGroupsQuery } from '@/lib/schemas/groups';
import { GROUP_SORT_KEYS, GROUP_STATUSES, SORT_ORDERS } from '@/lib/schemas/values';
import {
  changeOverviewView,
  DEFAULT_OVERVIEW_VIEW,
  groupsApiPath,
  groupsShownText,
  MAX_FILTER_LENGTH,
  OVERVIEW_PAGE_SIZE,
  overviewRequest,
  overviewView,
  paramsOfRecord,
  searchWithView,
  type OverviewView,
} from './overview-view';

const CLUSTERS = ['default', 'second'];
const viewOf = (search: string) => overviewView(new URLSearchParams(search), CLUSTERS);
const view = (over: Partial<OverviewView>): OverviewView => ({ ...DEFAULT_OVERVIEW_VIEW, ...over });

describe('overviewView', () => {
  it('reads every parameter of the URL', () => {
    expect(viewOf('?q=orders&status=WARN&cluster=second&sort=totalLag&order=reversed&page=3')).toEqual({
      q: 'orders',
      status: 'WARN',
      cluster: 'second',
      sort: 'totalLag',
      order: 'reversed',
      page: 3,
    });
  });

  it('is the default view without parameters', () => {
    expect(viewOf('')).toEqual(DEFAULT_OVERVIEW_VIEW);
  });

  it('reads a value the API would refuse, or a cluster not configured, as its default', () => {
    expect(viewOf(`?q=${'x'.repeat(250)}&status=ok&cluster=third&sort=lag&order=up&page=0`)).toEqual(
      DEFAULT_OVERVIEW_VIEW,
    );
    expect(viewOf('?cluster=Second').cluster).toBe('all');
    for (const page of ['-1', '1.5', '2e3', ' 2', '01', '10002', '99999999'])
      expect(viewOf(`?page=${page}`).page).toBe(1);
  });

  it('accepts the last page whose offset the API accepts', () => {
    expect(viewOf('?page=10001').page).toBe(10_001);
    expect(ZGroupsQuery.safeParse({ offset: String((10_001 - 1) * OVERVIEW_PAGE_SIZE) }).success).toBe(true);
  });

  it('accepts a filter as long as the input allows, and no longer', () => {
    expect(MAX_FILTER_LENGTH).toBe(249);
    expect(viewOf(`?q=${'x'.repeat(249)}`).q).toHaveLength(249);
    expect(viewOf(`?q=${'x'.repeat(250)}`).q).toBe('');
  });

  it('keeps the filter as typed (the request trims it)', () => {
    expect(viewOf('?q=%20orders%20').q).toBe(' orders ');
  });

  it('accepts a value exactly when GET /api/groups accepts it (its checks run without the zod schema)', () => {
    const near = (values: readonly string[]) =>
      fc.oneof(
        fc.constantFrom(...values),
        fc.constantFrom(...values).map((v) => v.toLowerCase()),
        fc.string({ maxLength: 12 }),
      );
    const params = fc.record({
      q: fc.oneof(fc.string({ minLength: 240, maxLength: 260 }), fc.string(), fc.string({ unit: 'grapheme' })),
      status: near(GROUP_STATUSES),
      sort: near(GROUP_SORT_KEYS),
      order: near(SORT_ORDERS),
      cluster: fc.oneof(fc.constantFrom('default', 'second', 'Second', 'second!', '-x'), fc.string({ maxLength: 70 })),
      page: fc.oneof(fc.integer({ min: 1, max: 12_000 }).map(String), fc.string({ maxLength: 9 })),
    });
    fc.assert(
      fc.property(params, (given) => {
        const read = overviewView(new URLSearchParams(given), [...CLUSTERS, given.cluster]);
        const accepts = (query: Record<string, string>) => ZGroupsQuery.safeParse(query).success;
        expect(read.q === given.q).toBe(accepts({ q: given.q.trim() }));
        expect(read.status === given.status).toBe(accepts({ status: given.status }));
        expect(read.sort === given.sort).toBe(accepts({ sort: given.sort }));
        expect(read.order === given.order).toBe(accepts({ order: given.order }));
        expect(read.cluster === given.cluster).toBe(ZClusterName.safeParse(given.cluster).success);
        const offset = (Number(given.page) - 1) * OVERVIEW_PAGE_SIZE;
        const pageAccepted = /^[1-9]\d*$/.test(given.page) && accepts({ offset: String(offset) });
        expect(String(read.page) === given.page).toBe(pageAccepted);
      }),
      { numRuns: 2_000 },
    );
  });

  it("reads Next's searchParams record as the browser's query string reads", () => {
    const record = { q: ['orders', 'payments'], page: '2', cluster: undefined };
    expect(overviewView(paramsOfRecord(record), CLUSTERS)).toEqual(viewOf('?q=orders&q=payments&page=2'));
  });
});

describe('overviewRequest', () => {
  it('asks for the first page and nothing else by default', () => {
    expect(overviewRequest(DEFAULT_OVERVIEW_VIEW)).toEqual({ limit: OVERVIEW_PAGE_SIZE });
    expect(groupsApiPath(overviewRequest(DEFAULT_OVERVIEW_VIEW))).toBe('/api/groups?limit=100');
  });

  it('carries every setting that differs from the default, the page as an offset', () => {
    const request = overviewRequest(
      view({ q: '  orders ', status: 'ERR', cluster: 'second', sort: 'group', order: 'reversed', page: 3 }),
    );
    expect(request).toEqual({
      cluster: 'second',
      q: 'orders',
      status: 'ERR',
      sort: 'group',
      order: 'reversed',
      limit: 100,
      offset: 200,
    });
    expect(groupsApiPath(request)).toBe(
      '/api/groups?cluster=second&q=orders&status=ERR&sort=group&order=reversed&limit=100&offset=200',
    );
  });

  it('leaves out a filter of blanks', () => {
    expect(overviewRequest(view({ q: '   ' }))).toEqual({ limit: 100 });
  });

  it('builds a query GET /api/groups accepts, and that means the same request', () => {
    const { cluster, ...request } = overviewRequest(
      view({ q: 'a&b=c', status: 'OK', cluster: 'default', sort: 'rebalance', page: 2 }),
    );
    expect(cluster).toBe('default');
    const sent = new URL(groupsApiPath({ cluster, ...request }), 'http://x').searchParams;
    expect(sent.get('cluster')).toBe('default');
    sent.delete('cluster');
    expect(ZGroupsQuery.parse(Object.fromEntries(sent))).toEqual(request);
  });

  it('gives one request for views that differ only in what the API ignores', () => {
    expect(overviewRequest(view({ q: 'orders ' }))).toEqual(overviewRequest(view({ q: ' orders' })));
  });
});

describe('changeOverviewView', () => {
  const onPage3 = view({ q: 'orders', page: 3 });

  it('a new page is a history entry of its own', () => {
    expect(changeOverviewView(onPage3, { page: 4 })).toEqual({ view: { ...onPage3, page: 4 }, history: 'push' });
  });

  it('a new filter or order starts again on page 1, in place of the current entry', () => {
    for (const change of [
      { q: 'order' },
      { status: 'ERR' },
      { cluster: 'second' },
      { sort: 'group' },
      { order: 'reversed' },
    ] as const) {
      expect(changeOverviewView(onPage3, change)).toEqual({
        view: { ...onPage3, ...change, page: 1 },
        history: 'replace',
      });
    }
  });

  it('a change to what is already set keeps the page', () => {
    expect(changeOverviewView(onPage3, { q: 'orders' })).toEqual({ view: onPage3, history: 'replace' });
    expect(changeOverviewView(onPage3, { page: 3 })).toEqual({ view: onPage3, history: 'replace' });
  });
});

describe('searchWithView', () => {
  it('holds only the non-default values, and the plain URL is the default view', () => {
    expect(searchWithView('', DEFAULT_OVERVIEW_VIEW)).toBe('');
    expect(searchWithView('?q=orders&page=2&sort=group', DEFAULT_OVERVIEW_VIEW)).toBe('');
    expect(searchWithView('', view({ q: 'a b', page: 2, order: 'reversed' }))).toBe('?q=a+b&order=reversed&page=2');
  });

  it('keeps parameters that are not the view', () => {
    expect(searchWithView('?debug=1&q=x', view({ status: 'WARN' }))).toBe('?debug=1&status=WARN');
  });

  it('reads back as the same view', () => {
    const shown = view({
      q: ' a&b ',
      status: 'QUARANTINED',
      cluster: 'second',
      sort: 'timeLag',
      order: 'reversed',
      page: 7,
    });
    expect(viewOf(searchWithView('', shown))).toEqual(shown);
  });
});

describe('groupsShownText', () => {
  const counts = { LOST: 0, ERR: 2, QUARANTINED: 0, WARN: 10, OK: 1_988 };
  it('counts the shown groups, and of how many when a status narrows them', () => {
    expect(groupsShownText(DEFAULT_OVERVIEW_VIEW, 2_000, counts)).toBe('2,000 groups');
    expect(groupsShownText(view({ status: 'WARN' }), 10, counts)).toBe('10 of 2,000 groups');
  });
  it('names the filter the counts are of', () => {
    expect(groupsShownText(view({ q: ' pay ' }), 1, { LOST: 0, ERR: 0, QUARANTINED: 0, WARN: 0, OK: 1 })).toBe(
      '1 group matches “pay”',
    );
    expect(groupsShownText(view({ q: 'pay' }), 3, counts)).toBe('3 groups match “pay”');
    expect(groupsShownText(view({ q: 'pay', status: 'ERR' }), 2, counts)).toBe('2 of 2,000 groups matching “pay”');
  });
});
