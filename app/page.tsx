import { GroupsOverview } from '@/components/groups-overview';
import { loadConfig } from '@/lib/config';

export const dynamic = 'force-dynamic';

export default function HomePage() {
  return <GroupsOverview refreshMs={loadConfig().UI_REFRESH_MS} />;
}
