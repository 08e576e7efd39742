import type { AuditChange, AuditLogEntry, AuditLogFilter, AuditLogPage } from '@shared/operations/auditLogApi.ts';
import { entityKindLabels } from '@shared/operations/entityKinds.ts';
import { type InfiniteData, type UseInfiniteQueryResult, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { createColumnHelper, tableFeatures, useTable } from '@tanstack/react-table';
import { Download, Loader2, ScrollText } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { errorMessage } from '../../app/api.ts';
import { actorLabel, eventTypeLabel, exactTime, readableText, readableValue, timeAgo } from '../../components/console/format.ts';
import { selectClasses } from '../../components/FieldMessage.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { auditLogApi } from './auditLogApi.ts';
import { EntityLink } from './EntityLink.tsx';
import { useOpenEntityHistory } from './entityHistoryLink.ts';

const PAGE_SIZE = 50;
/** A row shows this many changes; the rest are counted ("+3 more") and shown on demand. */
const CHANGES_SHOWN = 4;

/** The form's fields: dates as the date inputs give them (yyyy-MM-dd, the viewer's day). */
interface FilterForm {
  entityId: string;
  actorName: string;
  type: string;
  fromDate: string;
  toDate: string;
}
const EMPTY_FORM: FilterForm = { entityId: '', actorName: '', type: '', fromDate: '', toDate: '' };

/** The viewer's day as instants: `from` its first millisecond, `to` its last. */
function filterOf(form: FilterForm): AuditLogFilter {
  const day = (date: string, end: boolean) => {
    if (!date) return undefined;
    const [y, m, d] = date.split('-').map(Number);
    return new Date(y ?? 0, (m ?? 1) - 1, d ?? 1, end ? 23 : 0, end ? 59 : 0, end ? 59 : 0, end ? 999 : 0).toISOString();
  };
  const trimmed = (value: string) => value.trim() || undefined;
  return {
    entityId: trimmed(form.entityId),
    actorName: trimmed(form.actorName),
    type: trimmed(form.type),
    from: day(form.fromDate, false),
    to: day(form.toDate, true),
  };
}

const shown = (field: string, value: unknown): string => {
  // Instants in the viewer's zone, cents as money; other values as recorded.
  const text = readableValue(field, value) ?? '∅';
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
};

const features = tableFeatures({});
const helper = createColumnHelper<typeof features, AuditLogEntry>();
const columns = helper.columns([
  helper.accessor('at', {
    header: 'When',
    cell: ({ row }) => (
      <time dateTime={row.original.at} title={exactTime(row.original.at)} className="whitespace-nowrap">
        {timeAgo(row.original.at)}
      </time>
    ),
  }),
  helper.display({ id: 'actor', header: 'Who', cell: ({ row }) => <Actor actor={row.original.actor} /> }),
  helper.accessor('action', {
    header: 'What',
    cell: ({ row }) => (
      <div className="min-w-48">
        <div className="text-slate-900">{readableText(row.original.description ?? eventTypeLabel(row.original.action))}</div>
        <div className="text-xs text-slate-500" title={row.original.action}>
          {eventTypeLabel(row.original.action)}
        </div>
      </div>
    ),
  }),
  helper.display({ id: 'entity', header: 'Entity', cell: ({ row }) => <Entity entity={row.original.entity} /> }),
  helper.display({ id: 'changes', header: 'Changes', cell: ({ row }) => <Changes changes={row.original.changes} /> }),
  helper.display({
    id: 'from',
    header: 'From',
    cell: ({ row }) =>
      row.original.ip || row.original.userAgent ? (
        <div className="max-w-48 text-xs text-slate-600">
          {row.original.ip ? <div className="whitespace-nowrap">{row.original.ip}</div> : null}
          {row.original.userAgent ? (
            <div className="truncate" title={row.original.userAgent}>
              {row.original.userAgent}
            </div>
          ) : null}
        </div>
      ) : (
        <span className="text-xs text-slate-400">—</span>
      ),
  }),
]);

/** Audit Log (issue 12 §5): every recorded event, newest first, filtered and paged by the server. */
export function AuditLogTab() {
  const [form, setForm] = useState<FilterForm>(EMPTY_FORM);
  const [filter, setFilter] = useState<AuditLogFilter>({});
  const [formError, setFormError] = useState<string | null>(null);
  const ids = { entity: useId(), actor: useId(), type: useId(), from: useId(), to: useId(), error: useId() };
  const eventTypes = useQuery({
    queryKey: auditLogApi.eventTypesKey,
    queryFn: auditLogApi.eventTypes,
    staleTime: Number.POSITIVE_INFINITY,
  });

  const pages = useInfiniteQuery({
    queryKey: auditLogApi.pagesKey(filter),
    queryFn: ({ pageParam, signal }) => auditLogApi.page(filter, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (form.fromDate && form.toDate && form.fromDate > form.toDate) {
      setFormError('The "from" date must not be later than the "to" date');
      return;
    }
    setFormError(null);
    setFilter(filterOf(form));
  };
  const clear = () => {
    setForm(EMPTY_FORM);
    setFormError(null);
    setFilter({});
  };
  const field = (key: keyof FilterForm) => ({
    value: form[key],
    onChange: (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value })),
  });

  return (
    <section aria-labelledby="audit-heading" className="rounded-[var(--radius-card)] border border-border bg-white shadow-sm">
      <div className="space-y-4 border-b border-border px-5 py-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="audit-heading" className="text-lg font-semibold text-slate-900">
            Recorded events
          </h2>
          <div className="flex items-center gap-2">
            {pages.isFetching && !pages.isPending ? (
              <Loader2 className="size-4 animate-spin text-slate-400" aria-label="Refreshing" />
            ) : null}
            <Button asChild size="sm" variant="outline">
              <a href={auditLogApi.csvUrl(filter)} download data-testid="audit-csv">
                <Download className="size-4" aria-hidden="true" /> Export CSV
              </a>
            </Button>
          </div>
        </div>
        <form onSubmit={apply} aria-label="Filter the audit log" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-6">
          <div className="flex flex-col gap-1 lg:col-span-2">
            <Label htmlFor={ids.entity}>Entity id</Label>
            <Input id={ids.entity} maxLength={200} placeholder="e.g. a session or user id" {...field('entityId')} />
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor={ids.actor}>Who</Label>
            <Input id={ids.actor} type="search" maxLength={100} placeholder="Name or username" {...field('actorName')} />
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor={ids.type}>Type</Label>
            <select id={ids.type} className={selectClasses} {...field('type')}>
              <option value="">All types</option>
              {(eventTypes.data ?? []).map((t) => (
                <option key={t.type} value={t.type}>
                  {t.label}
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor={ids.from}>From</Label>
            <Input
              id={ids.from}
              type="date"
              aria-invalid={formError ? true : undefined}
              aria-describedby={formError ? ids.error : undefined}
              {...field('fromDate')}
            />
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor={ids.to}>To</Label>
            <Input id={ids.to} type="date" {...field('toDate')} />
          </div>
          <div className="flex flex-wrap items-center gap-2 sm:col-span-2 lg:col-span-6">
            <Button type="submit" size="sm">
              Apply filters
            </Button>
            <Button type="button" size="sm" variant="outline" onClick={clear}>
              Clear
            </Button>
            {formError ? (
              <p id={ids.error} role="alert" className="text-sm text-destructive">
                {formError}
              </p>
            ) : null}
          </div>
        </form>
      </div>
      <AuditRows pages={pages} />
    </section>
  );
}

type Pages = UseInfiniteQueryResult<InfiniteData<AuditLogPage, unknown>>;

const SKELETON_ROWS = ['a', 'b', 'c', 'd'];

function AuditRows({ pages }: { pages: Pages }) {
  const openHistory = useOpenEntityHistory();
  const rows = pages.data?.pages.flatMap((p) => p.rows) ?? [];
  const table = useTable({ features, columns, data: rows, getRowId: (row) => row.id });

  if (pages.isPending) {
    return (
      <div className="space-y-3 p-5" role="status" aria-busy="true" aria-label="Loading the audit log">
        {SKELETON_ROWS.map((key) => (
          <div key={key} className="h-12 animate-pulse rounded-md bg-slate-100" />
        ))}
      </div>
    );
  }
  if (pages.isError && rows.length === 0) {
    return (
      <div className="p-5">
        <LoadError
          title="The audit log could not be loaded"
          message={errorMessage(pages.error, 'The server did not answer as expected.')}
          onRetry={() => void pages.refetch()}
          retrying={pages.isFetching}
        />
      </div>
    );
  }
  if (rows.length === 0) {
    return (
      <div className="flex flex-col items-center px-6 py-12 text-center">
        <ScrollText className="size-9 text-slate-400" aria-hidden="true" />
        <p className="mt-3 font-medium text-slate-900">No events match these filters</p>
        <p className="mt-1 text-sm text-slate-600">Every action on the platform is recorded here as it happens.</p>
      </div>
    );
  }

  return (
    <>
      {/* Relative: the sr-only text inside cells is positioned within the scroller, not the page. */}
      <div className="relative overflow-x-auto">
        <table className="w-full text-left text-sm" aria-label="Audit log">
          <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <th key={header.id} scope="col" className="px-3 py-3 whitespace-nowrap first:pl-5 last:pr-5">
                    <table.FlexRender header={header} />
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody className="divide-y divide-border">
            {table.getRowModel().rows.map((row) => {
              const { kind, id, name } = row.original.entity;
              const open = kind ? () => openHistory(kind, id) : undefined;
              return (
                <tr
                  key={row.id}
                  data-testid="audit-row"
                  className={open ? 'cursor-pointer align-top hover:bg-slate-50' : 'align-top'}
                  tabIndex={open ? 0 : undefined}
                  aria-label={open && kind ? `Open the history of ${entityKindLabels[kind].toLowerCase()} ${name ?? id}` : undefined}
                  onClick={
                    open
                      ? (event) => {
                          // Buttons and links inside the row do their own thing.
                          if ((event.target as HTMLElement).closest('button, a, input, select, textarea')) return;
                          open();
                        }
                      : undefined
                  }
                  onKeyDown={
                    open
                      ? (event) => {
                          if (event.key === 'Enter' && event.target === event.currentTarget) open();
                        }
                      : undefined
                  }
                >
                  {row.getAllCells().map((cell) => (
                    <td key={cell.id} className="px-3 py-3 text-slate-700 first:pl-5 last:pr-5">
                      <table.FlexRender cell={cell} />
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3 border-t border-border px-5 py-3 text-sm">
        <span className="text-slate-600" aria-live="polite">
          {rows.length.toLocaleString('en-US')} {rows.length === 1 ? 'event' : 'events'} shown
          {pages.hasNextPage ? '' : ' — the end of the log'}
        </span>
        {pages.isFetchNextPageError ? (
          <span role="alert" className="text-destructive">
            {errorMessage(pages.error, 'The next page could not be loaded.')}
          </span>
        ) : null}
        {pages.hasNextPage ? (
          <Button size="sm" variant="outline" disabled={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
            {pages.isFetchingNextPage ? 'Loading...' : `Load ${PAGE_SIZE} more`}
          </Button>
        ) : null}
      </div>
    </>
  );
}

function Actor({ actor }: { actor: AuditLogEntry['actor'] }) {
  return (
    <div className="min-w-32">
      <div className="text-slate-900">
        {actor.id && actor.name ? <EntityLink kind="user" id={actor.id} name={actor.name} /> : actorLabel(actor)}
      </div>
      {actor.role ? (
        <Badge variant="outline" className="mt-1">
          {actor.role.replaceAll('_', ' ')}
        </Badge>
      ) : null}
    </div>
  );
}

function Entity({ entity }: { entity: AuditLogEntry['entity'] }) {
  return (
    <div className="min-w-32">
      {entity.kind ? (
        <>
          <div className="max-w-56 text-slate-900">
            <EntityLink kind={entity.kind} id={entity.id} name={entity.name} />
          </div>
          {entity.name ? <div className="text-xs text-slate-500">{entityKindLabels[entity.kind]}</div> : null}
        </>
      ) : (
        // Something with no history of its own (an alert, a job): its kind in words; the id in the tooltip, as a link keeps it.
        <div className="text-slate-900" title={`${eventTypeLabel(entity.type)} ${entity.id}`}>
          {eventTypeLabel(entity.type)}
        </div>
      )}
    </div>
  );
}

function Changes({ changes }: { changes: AuditChange[] }) {
  const [all, setAll] = useState(false);
  if (changes.length === 0) return <span className="text-xs text-slate-400">—</span>;
  const listed = all ? changes : changes.slice(0, CHANGES_SHOWN);
  return (
    <div className="min-w-56">
      <ul className="space-y-0.5 text-xs">
        {listed.map((change) => (
          <li key={change.field} className="break-words">
            <span className="font-medium text-slate-900">{change.field}:</span>{' '}
            <span className="text-slate-500">{shown(change.field, change.before)}</span> <span aria-hidden="true">→</span>
            <span className="sr-only">changed to</span> <span className="text-slate-900">{shown(change.field, change.after)}</span>
          </li>
        ))}
      </ul>
      {changes.length > CHANGES_SHOWN ? (
        <button
          type="button"
          className="mt-1 rounded text-xs font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
          onClick={() => setAll((v) => !v)}
          aria-expanded={all}
        >
          {all ? 'Show fewer' : `+${changes.length - CHANGES_SHOWN} more`}
        </button>
      ) : null}
    </div>
  );
}
