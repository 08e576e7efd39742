import { parseEntityRef } from '@shared/operations/entityKinds.ts';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { LogoutButton } from '../../app/auth/LogoutButton.tsx';
import { ProtectedRoute } from '../../app/auth/ProtectedRoute.tsx';
import { fullName, initialsOf, type User } from '../../app/auth/types.ts';
import { Logo } from '../../app/layout/Logo.tsx';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { cn } from '../../lib/utils.ts';
import { mailboxConsoleApi } from '../accounts/consoleApi.ts';
import { MailboxTab } from '../accounts/MailboxTab.tsx';
import { UsersTab } from '../accounts/UsersTab.tsx';
import { AlertsTab } from '../operations/AlertsTab.tsx';
import { AuditLogTab } from '../operations/AuditLogTab.tsx';
import { alertsApi } from '../operations/alertsApi.ts';
import { EntityHistoryPanel } from '../operations/EntityHistoryPanel.tsx';
import { JobsTab } from '../operations/JobsTab.tsx';
import { ProjectionsTab } from '../operations/ProjectionsTab.tsx';
import { PayoutsTab } from '../payouts/PayoutsTab.tsx';
import { PromoCodesTab } from '../promoCodes/PromoCodesTab.tsx';
import { PurchasesTab } from '../purchases/PurchasesTab.tsx';
import { AdminReviewsPanel } from '../reviews/ReviewLists.tsx';
import { SessionsTab } from '../sessions/SessionsTab.tsx';
import { CreateTutorTab } from '../tutors/CreateTutorTab.tsx';
import { tutorsConsoleApi } from '../tutors/consoleApi.ts';
import { TutorApplicationsTab } from '../tutors/TutorApplicationsTab.tsx';
import { OverviewTab } from './OverviewTab.tsx';
import { type AdminTab, type AdminTabId, type ConsoleTabId, type SystemTab, systemTabsFor, tabsFor } from './tabs.ts';

export const ADMIN_AREA_ROLES = ['admin', 'finance'] as const;

/** /admin (admin, finance): the console shell of spec part 2 §2 with the tab named by `?tab=`. */
export function AdminDashboardPage({ tab, history }: { tab?: ConsoleTabId; history?: string }) {
  return (
    <ProtectedRoute roles={ADMIN_AREA_ROLES} signInPath="/admin-login">
      {(user) => <AdminConsole user={user} requested={tab} history={history} />}
    </ProtectedRoute>
  );
}

function AdminConsole({ user, requested, history }: { user: User; requested?: ConsoleTabId; history?: string | undefined }) {
  const tabs = tabsFor(user.role);
  const isAdmin = user.role === 'admin';
  const systemTabs = systemTabsFor(user.role, { mailbox: useConsoleMailbox(isAdmin, requested === 'mailbox') });
  // A tab the role does not see (or none asked for) shows the role's first tab.
  const current: AdminTab | SystemTab =
    tabs.find((t) => t.id === requested) ?? systemTabs.find((t) => t.id === requested) ?? (tabs[0] as AdminTab);
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
          <nav aria-label="Admin sections" className="min-w-0 overflow-x-auto lg:overflow-visible">
            <ul className="flex gap-1 px-2 py-2 lg:flex-col lg:px-3 lg:py-4">
              {tabs.map((tab) => (
                <li key={tab.id} className="shrink-0">
                  <TabLink tab={tab} active={tab.id === current.id} count={badges[tab.id]} />
                </li>
              ))}
            </ul>
          </nav>
          {systemTabs.length > 0 ? (
            <nav
              aria-labelledby="system-tabs-heading"
              className="flex min-w-0 items-center gap-1 overflow-x-auto border-t border-border px-2 py-2 lg:block lg:overflow-visible lg:px-3 lg:py-3"
            >
              <h2
                id="system-tabs-heading"
                className="shrink-0 px-3 text-xs font-semibold tracking-wide whitespace-nowrap text-slate-500 uppercase lg:mb-1"
              >
                System
              </h2>
              <ul className="flex gap-1 lg:flex-col">
                {systemTabs.map((tab) => (
                  <li key={tab.id} className="shrink-0">
                    <TabLink tab={tab} active={tab.id === current.id} count={undefined} small />
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          <div className="hidden border-t border-border p-3 lg:mt-auto lg:block">
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
function HistoryOverlay({ history, tab }: { history: string | undefined; tab: ConsoleTabId | undefined }) {
  const navigate = useNavigate();
  const { page } = useSearch({ from: '/admin' });
  const entity = parseEntityRef(history);
  if (!entity) return null;
  // Closing keeps the tab and the page the table was on.
  const close = () => void navigate({ to: '/admin', search: { ...(tab ? { tab } : {}), ...(page ? { page } : {}) } });
  return <EntityHistoryPanel kind={entity.kind} id={entity.id} onClose={close} />;
}

function TabLink({
  tab,
  active,
  count,
  small,
}: {
  tab: AdminTab | SystemTab;
  active: boolean;
  count: number | undefined;
  small?: boolean;
}) {
  const Icon = tab.icon;
  return (
    <Link
      to="/admin"
      search={{ tab: tab.id }}
      activeOptions={{ exact: true, includeSearch: true }}
      activeProps={{}}
      aria-current={active ? 'page' : undefined}
      // relative: the count's screen-reader words (absolutely placed) stay inside the phone's
      // scrolling tab strip instead of widening the page.
      className={cn(
        'relative flex items-center gap-2 rounded-md px-3 font-medium whitespace-nowrap transition-colors',
        small ? 'py-1.5 text-xs' : 'py-2 text-sm',
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
  const applications = useQuery({ queryKey: tutorsConsoleApi.applicationsKey, queryFn: tutorsConsoleApi.applications, enabled: isAdmin });
  const alerts = useQuery({
    queryKey: alertsApi.unresolvedKey,
    queryFn: alertsApi.unresolved,
    enabled: isAdmin,
    retry: false,
    throwOnError: false,
  });
  return { applications: applications.data?.length, alerts: alerts.data?.length };
}

/**
 * Whether the console shows the Mailbox tab: the server answers its mailbox only while mail stays
 * in the outbox. Asked when the admin opens the console (or the tab itself).
 */
function useConsoleMailbox(isAdmin: boolean, requested: boolean): boolean {
  const mailbox = useQuery({
    queryKey: mailboxConsoleApi.mailboxKey,
    queryFn: mailboxConsoleApi.mailbox,
    enabled: isAdmin,
    retry: false,
    throwOnError: false,
  });
  // While the answer is on its way, a link to ?tab=mailbox keeps its tab.
  return mailbox.isSuccess || (requested && mailbox.isPending && isAdmin);
}

function TabContent({ tab }: { tab: ConsoleTabId }) {
  switch (tab) {
    case 'projections':
      return <ProjectionsTab />;
    case 'jobs':
      return <JobsTab />;
    case 'mailbox':
      return <MailboxTab />;
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
    case 'payouts':
      return <PayoutsTab />;
    case 'purchases':
      return <PurchasesTab />;
    case 'users':
      return <UsersTab />;
    case 'sessions':
      return (
        <>
          <SessionsTab />
          <AdminReviewsPanel />
        </>
      );
    case 'audit-log':
      return <AuditLogTab />;
  }
}
