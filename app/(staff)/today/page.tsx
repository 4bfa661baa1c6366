import type { Metadata } from 'next';
import { getDb } from '@/db/client';
import { can } from '@/domain/accounts/permissions';
import { parseReminderWindowHours } from '@/domain/dashboards/today';
import { TodayView } from '@/components/dashboards/TodayView';
import { appClock } from '@/server/platform/clock';
import { requireStaff } from '@/app/_http/session';
import { loadToday } from '@/server/dashboards/today';
import '@/app/styles/participants.css';
import '@/app/styles/today.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Today' };

/**
 * The front desk's today view (issue #13): today's events in the tenant's zone with their participants, what is
 * happening now and next, messages due in the next 1/3/6/12 hours (`?hours=`, default 3) and problems with
 * today's messages; every staff role may view it, staff and admins also get "Remind now". Made for a phone
 * first (cards, 44 px tap targets), two columns on a desktop. Refreshes itself every 30 s (components/dashboards/TodayView.tsx).
 */
export default async function TodayPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const { tenant, user } = await requireStaff();
  const clock = appClock();
  await clock.ready;
  const hours = parseReminderWindowHours(Array.isArray(sp.hours) ? sp.hours[0] : sp.hours);
  const data = await loadToday(getDb(), tenant, clock.now(), hours);
  return <TodayView initialData={data} canOperate={can(user.role, 'operate')} />;
}
