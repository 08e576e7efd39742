import { parseEntityRef } from '@shared/operations/entityKinds.ts';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { ProtectedRoute } from '../../app/auth/ProtectedRoute.tsx';
import { fullName, initialsOf, type User } from '../../app/auth/types.ts';
import { Logo } from '../../app/layout/Logo.tsx';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { cn } from '../../lib/utils.ts';
import { LogoutButton } from '../dashboards/LogoutButton.tsx';
import { AlertsTab } from './AlertsTab.tsx';
import { adminApi } from './api.ts';
import { CreateTutorTab } from './CreateTutorTab.tsx';
import { EntityHistoryPanel } from './EntityHistoryPanel.tsx';
import { LaterTab } from './LaterTab.tsx';
import { OverviewTab } from './OverviewTab.tsx';
import { PromoCodesTab } from './PromoCodesTab.tsx';
import { TutorApplicationsTab } from './TutorApplicationsTab.tsx';
import { type AdminTab, type AdminTabId, tabsFor } from './tabs.ts';

export const ADMIN_AREA_ROLES = ['admin', 'finance'] as const;

/** /admin (admin, finance): the console shell of spec part 2 §2 with the tab named by `?tab=`. */
export function AdminDashboardPage({ tab, history }: { tab?: AdminTabId; history?: string }) {
  return (
    <ProtectedRoute roles={ADMIN_AREA_ROLES}>{(user) => <AdminConsole user={user} requested={tab} history={history} />}</ProtectedRoute>
  );
}

function AdminConsole({ user, requested, history }: { user: User; requested?: AdminTabId; history?: string | undefined }) {
  const tabs = tabsFor(user.role);
  // A tab the role does not see (or none asked for) shows the role's first tab.
  const current = tabs.find((t) => t.id === requested) ?? (tabs[0] as AdminTab);
  const isAdmin = user.role === 'admin';
  useDocumentTitle(`Admin — ${current.label}`);
  const badges = useTabBadges(isAdmin);

  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <a
        href="#admin-main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:text-brand-800 focus:shadow"
      >
        Skip to content
      </a>
      <header className="border-b border-border bg-white">
        <div className="flex h-16 items-center justify-between gap-3 px-4 sm:px-6">
          <Link to="/" className="shrink-0 rounded-md" aria-label="Topmark home">
            {/* On a phone the word mark gives way to the tile, so the role badge and Logout fit. */}
            <Logo className="max-sm:[&>span]:sr-only" />
          </Link>
          <div className="flex min-w-0 items-center gap-3">
            <div className="flex min-w-0 items-center gap-2.5" data-testid="admin-user">
              <span
                aria-hidden="true"
                className="inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-700 text-sm font-semibold text-white"
              >
                {initialsOf(user)}
              </span>
              <div className="flex min-w-0 flex-col leading-tight">
                <span className="hidden truncate text-sm font-medium text-slate-900 sm:block">{fullName(user)}</span>
                <span className="sr-only sm:hidden">Signed in as {fullName(user)}</span>
                <Badge className="mt-0.5">{isAdmin ? 'Admin' : 'Finance'}</Badge>
              </div>
            </div>
            <LogoutButton className="lg:hidden" />
          </div>
        </div>
      </header>

      <div className="flex min-h-0 flex-1 flex-col lg:flex-row">
        <aside className="min-w-0 border-b border-border bg-white lg:flex lg:w-64 lg:shrink-0 lg:flex-col lg:border-r lg:border-b-0">
          <nav aria-label="Admin sections" className="min-w-0 overflow-x-auto lg:flex-1 lg:overflow-visible">
            <ul className="flex gap-1 px-2 py-2 lg:flex-col lg:px-3 lg:py-4">
              {tabs.map((tab) => (
                <li key={tab.id} className="shrink-0">
                  <TabLink tab={tab} active={tab.id === current.id} count={badges[tab.id]} />
                </li>
              ))}
            </ul>
          </nav>
          <div className="hidden border-t border-border p-3 lg:block">
            <LogoutButton className="w-full" />
          </div>
        </aside>

        <main id="admin-main" tabIndex={-1} className="min-w-0 flex-1 focus:outline-none">
          <div className="mx-auto max-w-7xl px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
            <div className="mb-6">
              <h1 className="text-2xl font-bold tracking-tight text-slate-900">{current.label}</h1>
              <p className="mt-1 text-sm text-slate-600">{current.summary}</p>
            </div>
            <TabContent tab={current.id} />
          </div>
        </main>
      </div>
      {isAdmin ? <HistoryOverlay history={history} tab={requested} /> : null}
    </div>
  );
}

/** `?history=kind:id` opens that entity's history over the tab (admins only); closing drops it from the URL. */
function HistoryOverlay({ history, tab }: { history: string | undefined; tab: AdminTabId | undefined }) {
  const navigate = useNavigate();
  const entity = parseEntityRef(history);
  if (!entity) return null;
  const close = () => void navigate({ to: '/admin', search: tab ? { tab } : {} });
  return <EntityHistoryPanel kind={entity.kind} id={entity.id} onClose={close} />;
}

function TabLink({ tab, active, count }: { tab: AdminTab; active: boolean; count: number | undefined }) {
  const Icon = tab.icon;
  return (
    <Link
      to="/admin"
      search={{ tab: tab.id }}
      activeOptions={{ exact: true, includeSearch: true }}
      activeProps={{}}
      aria-current={active ? 'page' : undefined}
      className={cn(
        'flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap transition-colors',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
        active ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
      )}
    >
      <Icon className="size-4 shrink-0" aria-hidden="true" />
      <span>{tab.label}</span>
      {count ? (
        <span className="ml-auto inline-flex min-w-5 items-center justify-center rounded-full bg-brand-700 px-1.5 text-xs font-semibold text-white">
          {count}
          <span className="sr-only">{tab.id === 'alerts' ? ' unresolved' : ' pending'}</span>
        </span>
      ) : null}
    </Link>
  );
}

/**
 * The sidebar's counts: pending applications (Tutor Applications) and unresolved alerts (Alerts).
 * A failed count leaves its badge away (no retries, no error shown): the tab itself says what failed.
 */
function useTabBadges(isAdmin: boolean): Partial<Record<AdminTabId, number>> {
  const applications = useQuery({ queryKey: adminApi.applicationsKey, queryFn: adminApi.applications, enabled: isAdmin });
  const alerts = useQuery({
    queryKey: adminApi.unresolvedAlertsKey,
    queryFn: adminApi.unresolvedAlerts,
    enabled: isAdmin,
    retry: false,
    throwOnError: false,
  });
  return { applications: applications.data?.length, alerts: alerts.data?.length };
}

function TabContent({ tab }: { tab: AdminTabId }) {
  switch (tab) {
    case 'overview':
      return <OverviewTab />;
    case 'applications':
      return <TutorApplicationsTab />;
    case 'create-tutor':
      return <CreateTutorTab />;
    case 'promo-codes':
      return <PromoCodesTab />;
    case 'alerts':
      return <AlertsTab />;
    default:
      return <LaterTab tab={tab} />;
  }
}
