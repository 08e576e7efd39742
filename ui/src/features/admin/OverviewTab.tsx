import { useQuery } from '@tanstack/react-query';
import { Clock, GraduationCap, UserCheck, Users } from 'lucide-react';
import { errorMessage } from '../../app/api.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { OpenEntityForm } from '../operations/EntityHistoryPanel.tsx';
import { RecentActivityFeed } from '../operations/RecentActivityFeed.tsx';
import { tutorsConsoleApi } from '../tutors/consoleApi.ts';

const COUNTERS = [
  { key: 'totalUsers', label: 'Total Users', icon: Users },
  { key: 'totalStudents', label: 'Total Students', icon: GraduationCap },
  { key: 'totalTutors', label: 'Total Tutors', icon: UserCheck },
  { key: 'pendingApprovals', label: 'Pending Approvals', icon: Clock },
] as const;

/** Overview: the four counters of GET /api/admin/overview and the Recent Activity panel. */
export function OverviewTab() {
  const overview = useQuery({ queryKey: tutorsConsoleApi.overviewKey, queryFn: tutorsConsoleApi.overview });
  const numbers = new Intl.NumberFormat('en-US');

  return (
    <div className="space-y-8">
      {overview.isError ? (
        <LoadError
          title="The counters could not be loaded"
          message={errorMessage(overview.error, 'The server did not answer as expected.')}
          onRetry={() => void overview.refetch()}
          retrying={overview.isFetching}
        />
      ) : (
        <section aria-label="Counters" aria-busy={overview.isPending}>
          <dl className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
            {COUNTERS.map(({ key, label, icon: Icon }) => (
              <div key={key} className="rounded-[var(--radius-card)] border border-border bg-white p-5 shadow-sm">
                <dt className="flex items-center justify-between gap-2 text-sm font-medium text-slate-600">
                  {label}
                  <Icon className="size-5 text-brand-700" aria-hidden="true" />
                </dt>
                <dd className="mt-3 text-3xl font-bold text-slate-900 tabular-nums" data-testid={`counter-${key}`}>
                  {overview.data ? (
                    numbers.format(overview.data[key])
                  ) : (
                    <span className="block h-9 w-16 animate-pulse rounded-md bg-slate-100">
                      <span className="sr-only">Loading</span>
                    </span>
                  )}
                </dd>
              </div>
            ))}
          </dl>
        </section>
      )}

      <OpenEntityForm />

      <RecentActivityFeed />
    </div>
  );
}
