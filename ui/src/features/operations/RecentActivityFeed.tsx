import { entityKindLabels } from '@shared/operations/entityKinds.ts';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { History } from 'lucide-react';
import { errorMessage } from '../../app/api.ts';
import { exactTime, readableText, timeAgo } from '../../components/console/format.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { auditLogApi } from './auditLogApi.ts';
import { EntityLink } from './EntityLink.tsx';
import { useOpenEntityHistory } from './entityHistoryLink.ts';

const SKELETON_ITEMS = ['a', 'b', 'c', 'd', 'e'];
/** The feed refreshes while the Overview is open, so new activity shows without a reload. */
const REFRESH_MS = 30_000;

/** Overview's Recent Activity: the latest audit log entries as who did what, each opening its entity's history. */
export function RecentActivityFeed() {
  const feed = useQuery({ queryKey: auditLogApi.recentKey, queryFn: auditLogApi.recent, refetchInterval: REFRESH_MS });
  const openHistory = useOpenEntityHistory();

  return (
    <section aria-labelledby="recent-activity" className="rounded-[var(--radius-card)] border border-border bg-white p-6 shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="recent-activity" className="text-lg font-semibold text-slate-900">
          Recent Activity
        </h2>
        <Link
          to="/admin"
          search={{ tab: 'audit-log' }}
          className="rounded text-sm font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          Open the audit log
        </Link>
      </div>
      {feed.isPending ? (
        <ul className="mt-4 space-y-3" aria-busy="true" aria-label="Loading recent activity">
          {SKELETON_ITEMS.map((key) => (
            <li key={key} className="h-10 animate-pulse rounded-md bg-slate-100" />
          ))}
        </ul>
      ) : feed.isError ? (
        <div className="mt-4">
          <LoadError
            title="Recent activity could not be loaded"
            message={errorMessage(feed.error, 'The server did not answer as expected.')}
            onRetry={() => void feed.refetch()}
            retrying={feed.isFetching}
          />
        </div>
      ) : feed.data.length === 0 ? (
        <div className="mt-4 flex flex-col items-center rounded-md border border-dashed border-slate-300 px-6 py-10 text-center">
          <History className="size-8 text-slate-400" aria-hidden="true" />
          <p className="mt-3 text-sm text-slate-600">Nothing has happened yet. Sign-ups, bookings and purchases appear here.</p>
        </div>
      ) : (
        <ol className="mt-4 divide-y divide-border" data-testid="recent-activity">
          {feed.data.map((item) => {
            const kind = item.entity.kind;
            return (
              <li key={item.id} className="flex flex-col gap-1 py-3 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
                <div className="min-w-0">
                  <p className="text-sm break-words text-slate-900">
                    {item.actorId ? (
                      <button
                        type="button"
                        onClick={() => item.actorId && openHistory('user', item.actorId)}
                        className="rounded text-left font-medium text-slate-900 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
                      >
                        {item.who}
                      </button>
                    ) : (
                      <span className="font-medium">{item.who}</span>
                    )}
                    : {readableText(item.what)}
                  </p>
                  {kind ? (
                    <p className="mt-0.5 truncate text-xs text-slate-500">
                      {entityKindLabels[kind]}: <EntityLink kind={kind} id={item.entity.id} name={item.entity.name} />
                    </p>
                  ) : (
                    <p className="text-xs text-slate-500">{item.entity.type}</p>
                  )}
                </div>
                <time dateTime={item.at} title={exactTime(item.at)} className="shrink-0 text-xs whitespace-nowrap text-slate-500">
                  {timeAgo(item.at)}
                </time>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
