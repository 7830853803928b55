// GET /api/groups - every recently sampled consumer group with its per-partition lag, worst first.
import { NextResponse } from 'next/server';
import { listGroupLag } from '@/lib/server/list-group-lag';
import { serverDatabase } from '@/lib/server/database';

export const dynamic = 'force-dynamic';

export async function GET() {
  return NextResponse.json(await listGroupLag(serverDatabase()));
}
