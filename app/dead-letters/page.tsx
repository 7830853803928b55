import { dehydrate, HydrationBoundary, QueryClient } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { EMPTY_FILTER, filterParams } from '@/components/dead-letter-filter';
import { queryKeys } from '@/components/query-keys';
import { loadDashboardConfig } from '@/lib/server/dashboard-config';
import {
  ZDeadLetterCounts,
  ZDeadLettersQuery,
  ZDeadLettersResponse,
  ZRedriveJobsResponse,
} from '@/lib/schemas/dead-letters';
import { serverDatabase } from '@/lib/server/database';
import { countDeadLetterTopic, listDeadLetters } from '@/lib/server/dead-letters/list-dead-letters';
import { listRedrives } from '@/lib/server/dead-letters/list-redrives';
import {
  serverDeadLetterTopic,
  serverPayloadAccess,
  withRecordSource,
} from '@/lib/server/dead-letters/server-dead-letters';
import { prefetchQuery } from '../server-prefetch';
import { requestPrincipal } from '../request-principal';
import { DeadLettersPageClient } from './page-client';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Dead letters' };

/**
 * A broker read the page waits for at most: past it, the page renders with its loading state and the client's
 * queries read the topic (a broker that is down answers only after kafkajs's retries, seconds later).
 */
const BROKER_READ_WITHIN_MS = 1_500;

/**
 * The newest dead letters, their counts and the redrive jobs in the first HTML (server-prefetch.ts), as the
 * viewer's role may see them: the counts and the jobs above the list no longer push it down when they arrive.
 */
export default async function DeadLettersPage() {
  const principal = await requestPrincipal();
  const client = new QueryClient();
  if (principal) {
    const target = serverDeadLetterTopic();
    const access = serverPayloadAccess(principal.role);
    const within = { withinMs: BROKER_READ_WITHIN_MS };
    await Promise.all([
      prefetchQuery(
        client,
        queryKeys.deadLetters(filterParams(EMPTY_FILTER).toString()),
        ZDeadLettersResponse,
        () =>
          withRecordSource((source) =>
            listDeadLetters(serverDatabase(), source, target, { ...ZDeadLettersQuery.parse({}), ...access }),
          ),
        within,
      ),
      prefetchQuery(
        client,
        queryKeys.deadLetterCounts(),
        ZDeadLetterCounts,
        () => withRecordSource((source) => countDeadLetterTopic(source, target.topic)),
        within,
      ),
      prefetchQuery(client, queryKeys.redrives(), ZRedriveJobsResponse, () =>
        listRedrives(serverDatabase(), { cluster: target.cluster }),
      ),
    ]);
  }
  return (
    <HydrationBoundary state={dehydrate(client)}>
      <DeadLettersPageClient refreshMs={loadDashboardConfig().UI_REFRESH_MS} />
    </HydrationBoundary>
  );
}
