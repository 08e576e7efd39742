import {
  type AdminUser,
  type AdminUserListQuery,
  adminUserSortColumns,
  type UserStatus,
  userStatuses,
} from '@shared/accounts/adminUserApi.ts';
import { accountRoles } from '@shared/accounts/user.ts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SortingState } from '@tanstack/react-table';
import { Loader2, UserX } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { errorMessage } from '../../app/api.ts';
import { useCurrentUser } from '../../app/auth/useCurrentUser.ts';
import { firstPageOnChange, SearchFilter, SelectFilter, serverPageQuery } from '../../components/console/ConsoleFilters.tsx';
import { ConsoleTable, consoleColumnHelper } from '../../components/console/ConsoleTable.tsx';
import { exactTime, shortDate, timeAgo } from '../../components/console/format.ts';
import { ReasonDialog } from '../../components/console/ReasonDialog.tsx';
import { useDebouncedValue } from '../../components/console/useDebouncedValue.ts';
import { usePageInUrl } from '../../components/console/usePageInUrl.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { useOpenEntityHistory } from '../operations/entityHistoryLink.ts';
import { usersConsoleApi } from './consoleApi.ts';

const PAGE_SIZE = 20;
const SORTABLE = new Set<string>(adminUserSortColumns);
const ASCENDING_FIRST = new Set(['name', 'username', 'email', 'role', 'status']);
const ROLE_LABELS: Record<string, string> = {
  admin: 'Admin',
  finance: 'Finance',
  tutor: 'Tutor',
  parent: 'Parent',
  student: 'Student',
};
const STATUS_LABELS: Record<UserStatus, string> = { active: 'Active', deactivated: 'Deactivated' };

const helper = consoleColumnHelper<AdminUser>();

/** The table's columns; the signed-in admin's own row has no action. */
function userColumns(myId: string | null) {
  return helper.columns([
    helper.accessor((u) => `${u.firstName} ${u.lastName}`, {
      id: 'name',
      header: 'Name',
      cell: ({ row }) => (
        <div className="min-w-40">
          <div className="font-medium text-slate-900">
            {row.original.firstName} {row.original.lastName}
          </div>
          <div className="text-xs text-slate-600">@{row.original.username}</div>
        </div>
      ),
    }),
    helper.accessor('email', { header: 'Email', cell: ({ row }) => <span className="break-all">{row.original.email}</span> }),
    helper.accessor('role', { header: 'Role', cell: ({ row }) => ROLE_LABELS[row.original.role] ?? row.original.role }),
    helper.accessor('status', { header: 'Status', cell: ({ row }) => <StatusBadge user={row.original} /> }),
    helper.accessor('createdAt', {
      header: 'Joined',
      cell: ({ row }) => (
        <time dateTime={row.original.createdAt} title={exactTime(row.original.createdAt)} className="whitespace-nowrap">
          {shortDate(row.original.createdAt)}
        </time>
      ),
    }),
    helper.accessor('lastSignInAt', {
      header: 'Last sign-in',
      cell: ({ row }) =>
        row.original.lastSignInAt ? (
          <time dateTime={row.original.lastSignInAt} title={exactTime(row.original.lastSignInAt)} className="whitespace-nowrap">
            {timeAgo(row.original.lastSignInAt)}
          </time>
        ) : (
          <span className="text-slate-500">Never</span>
        ),
    }),
    helper.display({
      id: 'actions',
      // A visible word: an sr-only (absolute) label in a scrolled table widens the whole page on a phone.
      header: 'Actions',
      // Nobody deactivates their own account (the server refuses it too).
      cell: ({ row }) => (row.original.id === myId ? null : <StatusAction user={row.original} />),
    }),
  ]);
}

/** Users (issue 12 §2): every account, searched and filtered by the server; deactivate or reactivate with a reason. */
export function UsersTab() {
  const [search, setSearch] = useState('');
  const [role, setRole] = useState('');
  const [status, setStatus] = useState<UserStatus | ''>('');
  const [sorting, setSorting] = useState<SortingState>([{ id: 'createdAt', desc: true }]);
  const [pagination, setPagination] = usePageInUrl(PAGE_SIZE);
  const settledSearch = useDebouncedValue(search.trim());
  const openHistory = useOpenEntityHistory();
  const me = useCurrentUser().data;
  const ids = { search: useId(), role: useId(), status: useId() };

  const query: AdminUserListQuery = {
    ...(settledSearch ? { search: settledSearch } : {}),
    ...(role ? { role: role as AdminUserListQuery['role'] } : {}),
    ...(status ? { status } : {}),
    ...serverPageQuery<NonNullable<AdminUserListQuery['sort']>>(sorting, pagination, SORTABLE, 'createdAt'),
  };
  const users = useQuery({
    queryKey: usersConsoleApi.listKey(query),
    queryFn: usersConsoleApi.list(query),
    placeholderData: keepPreviousData,
  });
  const refilter = firstPageOnChange(setPagination);

  // Stable columns: the table renders each cell function as a component, so new functions on every
  // render would remount the cells (and close a row's open dialog) whenever the list refetches.
  const myId = me?.id ?? null;
  const columns = useMemo(() => userColumns(myId), [myId]);

  return (
    <section aria-labelledby="users-heading" className="rounded-[var(--radius-card)] border border-border bg-white shadow-sm">
      <div className="flex flex-wrap items-end justify-between gap-3 border-b border-border px-5 py-4">
        <h2 id="users-heading" className="text-lg font-semibold text-slate-900">
          Accounts{users.data ? ` (${users.data.total})` : ''}
        </h2>
        <div className="flex w-full flex-wrap items-end gap-3 sm:w-auto">
          <SearchFilter id={ids.search} value={search} placeholder="Name, username or email" onChange={refilter(setSearch)} />
          <SelectFilter
            id={ids.role}
            label="Role"
            value={role}
            options={accountRoles}
            labelOf={(r) => ROLE_LABELS[r] ?? r}
            allLabel="All roles"
            onChange={refilter(setRole)}
          />
          <SelectFilter
            id={ids.status}
            label="Status"
            value={status}
            options={userStatuses}
            labelOf={(s) => STATUS_LABELS[s]}
            allLabel="All statuses"
            onChange={refilter((value: string) => setStatus(value as UserStatus | ''))}
          />
          {users.isFetching && !users.isPending ? (
            <Loader2 className="mb-2 size-4 animate-spin text-slate-400" aria-label="Refreshing" />
          ) : null}
        </div>
      </div>

      <ConsoleTable
        label="Accounts"
        query={users}
        columns={columns}
        getRowId={(row) => row.id}
        sortable={SORTABLE}
        ascendingFirst={ASCENDING_FIRST}
        sorting={sorting}
        onSortingChange={setSorting}
        pagination={pagination}
        onPaginationChange={setPagination}
        rowTestId="user-row"
        onOpenRow={(row) => openHistory('user', row.id)}
        rowNoun="account"
        empty={{
          icon: UserX,
          title: 'No accounts match',
          description: 'Try another search, or clear the role and status filters.',
        }}
        loadErrorTitle="The accounts could not be loaded"
      />
    </section>
  );
}

function StatusBadge({ user }: { user: AdminUser }) {
  if (user.status === 'active') return <Badge variant="success">Active</Badge>;
  return (
    <div className="min-w-32">
      <Badge variant="destructive">Deactivated</Badge>
      {user.deactivationReason ? <p className="mt-1 text-xs break-words text-slate-600">{user.deactivationReason}</p> : null}
    </div>
  );
}

function StatusAction({ user }: { user: AdminUser }) {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const action = user.status === 'active' ? 'deactivate' : 'reactivate';
  const name = `${user.firstName} ${user.lastName}`;
  const change = useMutation({
    mutationFn: (reason: string) => usersConsoleApi.setStatus(user.id, action, reason),
    onSuccess: async () => {
      setOpen(false);
      toast({ title: action === 'deactivate' ? 'Account deactivated' : 'Account reactivated', description: name, variant: 'success' });
      await queryClient.invalidateQueries({ queryKey: usersConsoleApi.allKey });
    },
    onError: (e) => {
      toast({ title: 'Error', description: errorMessage(e, `Failed to ${action} the account`), variant: 'destructive' });
      // Another admin may have changed it meanwhile: show the table as it is now.
      void queryClient.invalidateQueries({ queryKey: usersConsoleApi.allKey });
    },
  });
  return (
    <>
      <Button
        size="sm"
        variant={action === 'deactivate' ? 'outline' : 'secondary'}
        onClick={() => setOpen(true)}
        aria-label={`${action === 'deactivate' ? 'Deactivate' : 'Reactivate'} ${name}`}
      >
        {action === 'deactivate' ? 'Deactivate' : 'Reactivate'}
      </Button>
      <ReasonDialog
        open={open}
        onOpenChange={setOpen}
        title={action === 'deactivate' ? `Deactivate ${name}?` : `Reactivate ${name}?`}
        description={
          action === 'deactivate'
            ? 'They are signed out everywhere at once and cannot sign in (their students’ view-only logins included) until an admin reactivates the account.'
            : 'They can sign in again. The reason is kept in the account’s history.'
        }
        reasonLabel="Reason"
        placeholder={
          action === 'deactivate' ? 'For example: chargeback fraud reported by the bank' : 'For example: the bank cleared the dispute'
        }
        confirmLabel={action === 'deactivate' ? 'Deactivate account' : 'Reactivate account'}
        pendingLabel={action === 'deactivate' ? 'Deactivating...' : 'Reactivating...'}
        pending={change.isPending}
        destructive={action === 'deactivate'}
        onConfirm={(reason) => change.mutate(reason)}
      />
    </>
  );
}
