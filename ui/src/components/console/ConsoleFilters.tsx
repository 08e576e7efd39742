import type { PaginationState, SortingState } from '@tanstack/react-table';
import type { Dispatch, SetStateAction } from 'react';
import { cn } from '../../lib/utils.ts';
import { selectClasses } from '../FieldMessage.tsx';
import { Input } from '../ui/input.tsx';
import { Label } from '../ui/label.tsx';

/**
 * The filter controls above the console's tables (Sessions, Purchases, Users, Alerts): a labelled
 * search box, select or date range each. `onChange` receives the new value; the tab sets its
 * filter through `firstPageOnChange`, which also goes back to the first page.
 */

/** A filter's setter that also goes back to the first page: the narrower list may not have the page the table was on. */
export function firstPageOnChange(setPagination: Dispatch<SetStateAction<PaginationState>>) {
  return <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPagination((p) => ({ ...p, pageIndex: 0 }));
    };
}

/**
 * The sort and page a server-paged table asks for: the table's first sort column when the server
 * sorts by it (else `fallback`), newest first unless the header asked for ascending, pages from 1.
 */
export function serverPageQuery<S extends string>(
  sorting: SortingState,
  pagination: PaginationState,
  sortable: ReadonlySet<string>,
  fallback: S,
): { sort: S; order: 'asc' | 'desc'; page: number; pageSize: number } {
  const sort = sorting[0];
  return {
    sort: (sort && sortable.has(sort.id) ? sort.id : fallback) as S,
    order: sort && !sort.desc ? 'asc' : 'desc',
    page: pagination.pageIndex + 1,
    pageSize: pagination.pageSize,
  };
}

export function SearchFilter(props: {
  id: string;
  value: string;
  placeholder: string;
  className?: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className={cn('flex w-full flex-col gap-1', props.className ?? 'sm:w-64')}>
      <Label htmlFor={props.id}>Search</Label>
      <Input
        id={props.id}
        type="search"
        value={props.value}
        maxLength={200}
        placeholder={props.placeholder}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </div>
  );
}

export function SelectFilter<T extends string>(props: {
  id: string;
  label: string;
  value: string;
  options: readonly T[];
  labelOf: (option: T) => string;
  /** The empty choice's label ("All statuses"); none when a value is always chosen. */
  allLabel?: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="flex flex-col gap-1">
      <Label htmlFor={props.id}>{props.label}</Label>
      <select id={props.id} className={selectClasses} value={props.value} onChange={(event) => props.onChange(event.target.value)}>
        {props.allLabel !== undefined ? <option value="">{props.allLabel}</option> : null}
        {props.options.map((option) => (
          <option key={option} value={option}>
            {props.labelOf(option)}
          </option>
        ))}
      </select>
    </div>
  );
}

function DateFilter(props: { id: string; label: string; value: string; min?: string; max?: string; onChange: (value: string) => void }) {
  return (
    <div className="flex flex-col gap-1">
      <Label htmlFor={props.id}>{props.label}</Label>
      <Input
        id={props.id}
        type="date"
        value={props.value}
        min={props.min}
        max={props.max}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </div>
  );
}

/** From and To dates, each bounding the other's picker. */
export function DateRangeFilter(props: {
  fromId: string;
  toId: string;
  from: string;
  to: string;
  onFromChange: (value: string) => void;
  onToChange: (value: string) => void;
}) {
  return (
    <>
      <DateFilter id={props.fromId} label="From" value={props.from} max={props.to || undefined} onChange={props.onFromChange} />
      <DateFilter id={props.toId} label="To" value={props.to} min={props.from || undefined} onChange={props.onToChange} />
    </>
  );
}
