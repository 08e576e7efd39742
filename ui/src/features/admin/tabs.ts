import { parseEntityRef } from '@shared/operations/entityKinds.ts';
import type { LucideIcon } from 'lucide-react';
import {
  BadgeDollarSign,
  Bell,
  CalendarDays,
  ClipboardList,
  Cog,
  DatabaseZap,
  Inbox,
  LayoutDashboard,
  ScrollText,
  ShoppingCart,
  TicketPercent,
  UserPlus,
  Users,
} from 'lucide-react';

/** The ten tabs of the admin sidebar, in the spec's order (part 2 §2). */
export const ADMIN_TAB_IDS = [
  'overview',
  'applications',
  'create-tutor',
  'sessions',
  'purchases',
  'payouts',
  'users',
  'promo-codes',
  'alerts',
  'audit-log',
] as const;
export type AdminTabId = (typeof ADMIN_TAB_IDS)[number];

export interface AdminTab {
  id: AdminTabId;
  label: string;
  icon: LucideIcon;
  /** One line under the tab's heading: what the tab is for. */
  summary: string;
}

export const ADMIN_TABS: readonly AdminTab[] = [
  { id: 'overview', label: 'Overview', icon: LayoutDashboard, summary: 'Accounts by role and applications awaiting review.' },
  {
    id: 'applications',
    label: 'Tutor Applications',
    icon: ClipboardList,
    summary: 'Review the tutors who applied with Google: approve, deny or email them.',
  },
  {
    id: 'create-tutor',
    label: 'Create Tutor',
    icon: UserPlus,
    summary: 'Invite a tutor to sign up with Google, and review pending applications.',
  },
  { id: 'sessions', label: 'Sessions', icon: CalendarDays, summary: 'Every tutoring session, booked or completed.' },
  { id: 'purchases', label: 'Purchases', icon: ShoppingCart, summary: 'Session packages bought by families.' },
  { id: 'payouts', label: 'Payouts', icon: BadgeDollarSign, summary: 'What each tutor is owed per billing period.' },
  { id: 'users', label: 'Users', icon: Users, summary: 'Every account: students, parents, tutors and staff.' },
  { id: 'promo-codes', label: 'Promo Codes', icon: TicketPercent, summary: 'Discount codes and their redemptions.' },
  { id: 'alerts', label: 'Alerts', icon: Bell, summary: 'Problems that need a person: failed payments, calendar sync and more.' },
  { id: 'audit-log', label: 'Audit Log', icon: ScrollText, summary: 'Who did what, when, to which record.' },
];

/** Finance staff see Purchases and Payouts only (issue 12: the operations console). */
const FINANCE_TABS: readonly AdminTabId[] = ['purchases', 'payouts'];

/**
 * The smaller "System" group below the ten (issue 12 §7–§9), admins only: projections, jobs and,
 * while mail stays in the outbox, the dev mailbox.
 */
export const SYSTEM_TAB_IDS = ['projections', 'jobs', 'mailbox'] as const;
export type SystemTabId = (typeof SYSTEM_TAB_IDS)[number];
export type ConsoleTabId = AdminTabId | SystemTabId;

export interface SystemTab {
  id: SystemTabId;
  label: string;
  icon: LucideIcon;
  summary: string;
}

export const SYSTEM_TABS: readonly SystemTab[] = [
  {
    id: 'projections',
    label: 'Projections',
    icon: DatabaseZap,
    summary: 'The read models: how far behind the log they are, rebuilds, and events they parked.',
  },
  { id: 'jobs', label: 'Jobs', icon: Cog, summary: 'Background work: queues, failed jobs and schedules.' },
  { id: 'mailbox', label: 'Mailbox', icon: Inbox, summary: 'E-mails this server kept instead of sending (no mail provider).' },
];

export function systemTabsFor(role: string, options: { mailbox: boolean }): readonly SystemTab[] {
  if (role !== 'admin') return [];
  return SYSTEM_TABS.filter((tab) => tab.id !== 'mailbox' || options.mailbox);
}

export function tabsFor(role: string): readonly AdminTab[] {
  return role === 'finance' ? ADMIN_TABS.filter((tab) => FINANCE_TABS.includes(tab.id)) : ADMIN_TABS;
}

export function isAdminTabId(value: unknown): value is AdminTabId {
  return typeof value === 'string' && (ADMIN_TAB_IDS as readonly string[]).includes(value);
}

export function isConsoleTabId(value: unknown): value is ConsoleTabId {
  return isAdminTabId(value) || (typeof value === 'string' && (SYSTEM_TAB_IDS as readonly string[]).includes(value));
}

/**
 * `?tab=` of /admin: one of the ten tab ids or a System tab's, or absent (the role's first tab). `?history=kind:id`
 * opens that entity's history over the tab (every console table's rows link there).
 */
export interface AdminSearch {
  tab?: ConsoleTabId;
  history?: string;
  /** The paged table's page (1-based; absent on the first), kept so a reload or a shared link stays there. */
  page?: number;
}

export const MAX_PAGE_PARAM = 100_000;

/** `?page=` as a whole page number from 2 up; anything else is the first page. */
function pageOf(value: unknown): number | undefined {
  const page = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : Number.NaN;
  return Number.isInteger(page) && page > 1 && page <= MAX_PAGE_PARAM ? page : undefined;
}

export function validateAdminSearch(search: Record<string, unknown>): AdminSearch {
  const history = parseEntityRef(search.history);
  return {
    ...(isConsoleTabId(search.tab) ? { tab: search.tab } : {}),
    ...(history ? { history: `${history.kind}:${history.id}` } : {}),
    ...(pageOf(search.page) ? { page: pageOf(search.page) } : {}),
  };
}
