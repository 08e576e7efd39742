import type { AdminListedUser } from '@shared/tutors/adminApi.ts';
import { useQuery } from '@tanstack/react-query';
import {
  columnFilteringFeature,
  createColumnHelper,
  createFilteredRowModel,
  createPaginatedRowModel,
  createSortedRowModel,
  filterFn_includesString,
  globalFilteringFeature,
  rowPaginationFeature,
  rowSortingFeature,
  sortFn_alphanumeric,
  sortFn_text,
  tableFeatures,
  useTable,
} from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ArrowUpDown, Inbox, Loader2, Mail, Search, X } from 'lucide-react';
import { errorMessage } from '../../app/api.ts';
import { site } from '../../app/site.ts';
import { applicantName, exactTime, timeAgo } from '../../components/console/format.ts';
import { LoadError } from '../../components/LoadError.tsx';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '../../components/ui/alert-dialog.tsx';
import { Button, buttonVariants } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { ApplicationProcess } from './ApplicationProcess.tsx';
import { ApproveApplicant } from './ApproveApplicant.tsx';
import { tutorsConsoleApi } from './consoleApi.ts';
import { useReview } from './useReview.ts';

export const DENY_CONFIRMATION = "Are you sure you want to deny this application? This will permanently remove the applicant's record.";
const EMAIL_SUBJECT = `${site.name} Application Update`;

const features = tableFeatures({
  columnFilteringFeature,
  globalFilteringFeature,
  filteredRowModel: createFilteredRowModel(),
  filterFns: { includesString: filterFn_includesString },
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { alphanumeric: sortFn_alphanumeric, text: sortFn_text },
  rowPaginationFeature,
  paginatedRowModel: createPaginatedRowModel(),
});
const PAGE_SIZE = 10;
/** The search box looks at names and e-mail addresses. */
const SEARCHED = new Set(['name', 'email']);
const helper = createColumnHelper<typeof features, AdminListedUser>();
const columns = helper.columns([
  helper.accessor((user) => applicantName(user) ?? user.username ?? '', {
    id: 'name',
    header: 'Name',
    sortFn: 'text',
    cell: ({ row }) => <ApplicantNameCell user={row.original} />,
  }),
  helper.accessor('email', {
    header: 'Email',
    sortFn: 'text',
    cell: ({ row }) => <span className="whitespace-nowrap">{row.original.email}</span>,
  }),
  helper.accessor('authProvider', {
    header: 'Auth Provider',
    sortFn: 'text',
    cell: ({ row }) => (row.original.authProvider === 'google' ? 'Google OAuth' : 'Local'),
  }),
  helper.accessor('createdAt', {
    header: 'Applied',
    // ISO timestamps sort chronologically as text.
    sortFn: 'alphanumeric',
    cell: ({ row }) => (
      <time dateTime={row.original.createdAt} title={exactTime(row.original.createdAt)} className="whitespace-nowrap">
        {timeAgo(row.original.createdAt)}
      </time>
    ),
  }),
  helper.display({ id: 'actions', header: 'Actions', cell: ({ row }) => <ApplicationActions application={row.original} /> }),
]);
const NO_APPLICATIONS: AdminListedUser[] = [];

/** Tutor Applications: the applications awaiting review (spec part 2 §2) and the Application Process panel. */
export function TutorApplicationsTab() {
  const applications = useQuery({ queryKey: tutorsConsoleApi.applicationsKey, queryFn: tutorsConsoleApi.applications });
  return (
    <div className="space-y-8">
      <section aria-labelledby="applications-heading" className="rounded-[var(--radius-card)] border border-border bg-white shadow-sm">
        <div className="flex items-center justify-between gap-3 border-b border-border px-5 py-4">
          <h2 id="applications-heading" className="text-lg font-semibold text-slate-900">
            Pending applications
          </h2>
          {applications.isFetching && !applications.isPending ? (
            <Loader2 className="size-4 animate-spin text-slate-400" aria-label="Refreshing" />
          ) : null}
        </div>
        {applications.isPending ? (
          <TableSkeleton />
        ) : applications.isError ? (
          <div className="p-5">
            <LoadError
              title="The applications could not be loaded"
              message={errorMessage(applications.error, 'The server did not answer as expected.')}
              onRetry={() => void applications.refetch()}
              retrying={applications.isFetching}
            />
          </div>
        ) : applications.data.length === 0 ? (
          <div className="flex flex-col items-center px-6 py-12 text-center">
            <Inbox className="size-9 text-slate-400" aria-hidden="true" />
            <p className="mt-3 font-medium text-slate-900">No pending applications</p>
            <p className="mt-1 text-sm text-slate-600">New applications appear here when a tutor signs up with Google.</p>
          </div>
        ) : (
          <ApplicationsTable data={applications.data ?? NO_APPLICATIONS} />
        )}
      </section>
      <ApplicationProcess />
    </div>
  );
}

function ApplicationsTable({ data }: { data: AdminListedUser[] }) {
  const table = useTable({
    features,
    columns,
    data,
    getRowId: (row) => row.id,
    globalFilterFn: 'includesString',
    getColumnCanGlobalFilter: (column) => SEARCHED.has(column.id),
    initialState: { pagination: { pageIndex: 0, pageSize: PAGE_SIZE } },
  });
  const rows = table.getRowModel().rows;
  const pageCount = table.getPageCount();
  const filter = String(table.state.globalFilter ?? '');
  return (
    <div>
      <div className="border-b border-border px-5 py-3">
        <Label htmlFor="applications-search" className="sr-only">
          Search applications
        </Label>
        <div className="relative max-w-sm">
          <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
          <Input
            id="applications-search"
            type="search"
            placeholder="Search by name or email"
            className="pl-9"
            value={filter}
            onChange={(event) => table.setGlobalFilter(event.target.value)}
          />
        </div>
      </div>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  const canSort = header.column.getCanSort();
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      className="px-3 py-3 whitespace-nowrap first:pl-5 last:pr-5"
                      aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                    >
                      {canSort ? (
                        <button
                          type="button"
                          onClick={header.column.getToggleSortingHandler()}
                          className="inline-flex items-center gap-1 rounded uppercase hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
                        >
                          <table.FlexRender header={header} />
                          {sorted === 'asc' ? (
                            <ArrowUp className="size-3.5" aria-hidden="true" />
                          ) : sorted === 'desc' ? (
                            <ArrowDown className="size-3.5" aria-hidden="true" />
                          ) : (
                            <ArrowUpDown className="size-3.5 text-slate-400" aria-hidden="true" />
                          )}
                        </button>
                      ) : (
                        <table.FlexRender header={header} />
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody className="divide-y divide-border">
            {rows.length === 0 ? (
              <tr>
                <td colSpan={columns.length} className="px-5 py-8 text-center text-slate-600">
                  No applications match “{filter}”.
                </td>
              </tr>
            ) : null}
            {rows.map((row) => (
              <tr key={row.id} data-testid="application-row" className="align-top">
                {row.getAllCells().map((cell) => (
                  <td key={cell.id} className="px-3 py-3 text-slate-700 first:pl-5 last:pr-5">
                    <table.FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pageCount > 1 ? (
        <nav aria-label="Applications pages" className="flex items-center justify-between gap-3 border-t border-border px-5 py-3 text-sm">
          <span className="text-slate-600">
            Page {table.state.pagination.pageIndex + 1} of {pageCount}
          </span>
          <div className="flex gap-2">
            <Button size="sm" variant="outline" disabled={!table.getCanPreviousPage()} onClick={() => table.previousPage()}>
              Previous
            </Button>
            <Button size="sm" variant="outline" disabled={!table.getCanNextPage()} onClick={() => table.nextPage()}>
              Next
            </Button>
          </div>
        </nav>
      ) : null}
    </div>
  );
}

function ApplicantNameCell({ user }: { user: AdminListedUser }) {
  return (
    <div>
      <div className="font-medium text-slate-900">{applicantName(user) ?? 'Name not provided'}</div>
      {user.username ? <div className="text-xs text-slate-500">@{user.username}</div> : null}
    </div>
  );
}

function ApplicationActions({ application }: { application: AdminListedUser }) {
  const name = applicantName(application) ?? application.email;
  const approve = useReview({
    run: () => tutorsConsoleApi.approveApplication(application.id),
    success: { title: 'Tutor application approved successfully' },
    fallback: 'Failed to approve tutor application',
  });
  const deny = useReview({
    run: () => tutorsConsoleApi.denyApplication(application.id),
    success: { title: 'Tutor application denied and removed' },
    fallback: 'Failed to deny tutor application',
  });
  const busy = approve.isPending || deny.isPending;
  const mailto = `mailto:${application.email}?subject=${encodeURIComponent(EMAIL_SUBJECT)}`;

  return (
    <div className="flex flex-nowrap gap-1.5">
      <ApproveApplicant who={name} pending={approve.isPending} disabled={busy} onConfirm={approve.start} />
      <AlertDialog>
        <AlertDialogTrigger asChild>
          <Button size="sm" variant="outline" disabled={busy}>
            {deny.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <X aria-hidden="true" />}
            {deny.isPending ? 'Denying...' : 'Deny'}
            <span className="sr-only"> {name}</span>
          </Button>
        </AlertDialogTrigger>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Deny {name}?</AlertDialogTitle>
            <AlertDialogDescription>{DENY_CONFIRMATION}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel asChild>
              <Button variant="outline">Cancel</Button>
            </AlertDialogCancel>
            <AlertDialogAction asChild>
              <Button variant="destructive" onClick={deny.start}>
                Deny application
              </Button>
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
      <a href={mailto} className={buttonVariants({ variant: 'ghost', size: 'sm' })}>
        <Mail aria-hidden="true" />
        Email
        <span className="sr-only"> {name}</span>
      </a>
    </div>
  );
}

function TableSkeleton() {
  return (
    <div className="space-y-3 p-5" aria-busy="true">
      <span className="sr-only">Loading applications</span>
      {[0, 1, 2].map((i) => (
        <div key={i} className="h-12 animate-pulse rounded-md bg-slate-100" />
      ))}
    </div>
  );
}
