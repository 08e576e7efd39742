import { ENTITY_ID_PATTERN, type HistoryEvent } from '@shared/operations/entityHistoryApi.ts';
import { type EntityKind, entityKindLabels, entityKinds } from '@shared/operations/entityKinds.ts';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { ChevronLeft, ChevronRight, GitBranch, History, Loader2, Search } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { errorMessage } from '../../app/api.ts';
import { actorLabel, eventTypeLabel, exactTime, readableText, readableValue } from '../../components/console/format.ts';
import { selectClasses } from '../../components/FieldMessage.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { cn } from '../../lib/utils.ts';
import { entityHistoryApi } from './entityHistoryApi.ts';
import { useOpenEntityHistory } from './entityHistoryLink.ts';
import { stateDiff } from './stateDiff.ts';

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** A state value (JSON text) as staff read it: instants in the viewer's zone, cents as money; the raw text stays in the title. */
function stateValue(path: string, text: string | null): string {
  if (text === null) return '(absent)';
  try {
    return readableValue(path, JSON.parse(text)) ?? 'null';
  } catch {
    return text;
  }
}
/** "Maya Okafor (tutor)", "Deleted user (student)", "System". */
const actorOf = (event: HistoryEvent) => {
  const role = event.actor.role?.replaceAll('_', ' ');
  if (!event.actor.id) return role && role !== 'system' ? `A signed-out ${role}` : 'System';
  const who = actorLabel(event.actor);
  return role ? `${who} (${role})` : who;
};
const panelClasses = 'rounded-md border border-border bg-white p-3 sm:p-4';

/**
 * An entity's history over the console (issue 12 §6, `?history=kind:id`): its timeline, a slider
 * to step through it with the state folded at each revision and what each event changed, and the
 * story of the request behind an event across entities. Escape or the close button closes it.
 */
export function EntityHistoryPanel({ kind, id, onClose }: { kind: EntityKind; id: string; onClose: () => void }) {
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="content-start sm:max-w-6xl" data-testid="entity-history">
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2">
            <History className="size-5 shrink-0 text-brand-700" aria-hidden="true" />
            {entityKindLabels[kind]} history
          </DialogTitle>
          <DialogDescription>
            <EntityName kind={kind} id={id} />
          </DialogDescription>
        </DialogHeader>
        <OpenEntityForm key={kind} compact initialKind={kind} />
        {/* A new entity starts at its own head, with nothing of the previous one selected. */}
        <HistoryBody key={`${kind}:${id}`} kind={kind} id={id} />
      </DialogContent>
    </Dialog>
  );
}

function useEntityEvents(kind: EntityKind, id: string) {
  return useInfiniteQuery({
    queryKey: entityHistoryApi.eventsKey(kind, id),
    queryFn: ({ pageParam, signal }) => entityHistoryApi.events(kind, id, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (page) => page.nextRevision ?? undefined,
    retry: (count, error) => count < 2 && !/^404:/.test(error.message),
  });
}

/** The entity's name as the server resolved it; the id stays one step away (its tooltip, and Details below). */
function EntityName({ kind, id }: { kind: EntityKind; id: string }) {
  const events = useEntityEvents(kind, id);
  const name = events.data?.pages[0]?.name;
  return name ? (
    <span title={id} data-testid="entity-history-name">
      {name}
    </span>
  ) : (
    <code className="break-all">{id}</code>
  );
}

function HistoryBody({ kind, id }: { kind: EntityKind; id: string }) {
  const events = useEntityEvents(kind, id);
  const [selected, setSelected] = useState<number | null>(null);
  const [story, setStory] = useState<string | null>(null);

  if (events.isPending)
    return (
      <div className="space-y-2" aria-busy="true">
        <span className="sr-only">Loading the history</span>
        {[0, 1, 2, 3].map((key) => (
          <div key={key} className="h-12 animate-pulse rounded-md bg-slate-200/70" />
        ))}
      </div>
    );
  if (events.isError)
    return (
      <LoadError
        title={/^404:/.test(events.error.message) ? 'No such entity' : 'The history could not be loaded'}
        message={errorMessage(events.error, 'The server did not answer as expected.')}
        onRetry={() => void events.refetch()}
        retrying={events.isFetching}
      />
    );

  const list = events.data.pages.flatMap((page) => page.events);
  const head = list.length - 1;
  const revision = Math.min(selected ?? head, head);
  const current = list[revision] as HistoryEvent;
  const first = list[0] as HistoryEvent;

  return (
    <div className="grid min-w-0 gap-4 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
      <section aria-labelledby="history-timeline" className={cn(panelClasses, 'min-w-0')}>
        <h3 id="history-timeline" className="text-sm font-semibold text-slate-900">
          Timeline ({list.length} event{list.length === 1 ? '' : 's'})
        </h3>
        <ol className="mt-2 max-h-[24rem] space-y-1 overflow-y-auto lg:max-h-[60dvh]">
          {list.map((event) => (
            <li key={event.revision}>
              <button
                type="button"
                onClick={() => setSelected(event.revision)}
                aria-current={event.revision === revision ? 'step' : undefined}
                className={cn(
                  'w-full rounded-md px-2.5 py-2 text-left text-sm transition-colors',
                  'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring',
                  event.revision === revision ? 'bg-brand-50 text-brand-900 ring-1 ring-brand-200' : 'hover:bg-slate-100',
                )}
              >
                <span className="flex items-baseline justify-between gap-2">
                  <span className="font-medium break-all">
                    <span className="text-slate-500 tabular-nums">#{event.revision}</span>{' '}
                    <span title={event.type}>{eventTypeLabel(event.type)}</span>
                  </span>
                </span>
                <span className="block text-xs break-words text-slate-600">{readableText(event.description)}</span>
                <span className="block text-xs text-slate-500">
                  <time dateTime={event.recordedAt}>{exactTime(event.recordedAt)}</time> · {actorOf(event)}
                </span>
              </button>
            </li>
          ))}
        </ol>
        {events.hasNextPage ? (
          <Button
            variant="outline"
            size="sm"
            className="mt-2 w-full"
            disabled={events.isFetchingNextPage}
            onClick={() => void events.fetchNextPage()}
          >
            {events.isFetchingNextPage ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
            Load later events
          </Button>
        ) : null}
      </section>

      <div className="min-w-0 space-y-4">
        <RevisionStepper list={list} revision={revision} onChange={setSelected} />
        <TravelToTime kind={kind} id={id} loaded={head} onRevision={setSelected} />
        <StateAtRevision kind={kind} id={id} event={current} firstRecordedAt={first.recordedAt} />
        <section aria-labelledby="history-story" className={panelClasses}>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h3 id="history-story" className="text-sm font-semibold text-slate-900">
              The story behind event #{current.revision}
            </h3>
            <Button
              variant="outline"
              size="sm"
              disabled={!current.correlationId}
              aria-expanded={story === current.correlationId}
              onClick={() => setStory(story === current.correlationId ? null : current.correlationId)}
            >
              <GitBranch aria-hidden="true" />
              Follow this story
            </Button>
          </div>
          {story ? <CorrelationStory correlationId={story} /> : null}
        </section>
      </div>
    </div>
  );
}

/** `yyyy-MM-ddTHH:mm` of a datetime-local field, read in the viewer's zone, as an instant. */
function instantOfLocal(value: string): string | null {
  const time = new Date(value);
  return value && !Number.isNaN(time.getTime()) ? time.toISOString() : null;
}

/**
 * Time travel by date: the state as it was at a moment the viewer picks (in their zone). The
 * server folds up to the last event recorded at or before it (`?at=`); the timeline then shows that revision.
 */
function TravelToTime({
  kind,
  id,
  loaded,
  onRevision,
}: {
  kind: EntityKind;
  id: string;
  loaded: number;
  onRevision: (revision: number) => void;
}) {
  const fieldId = useId();
  const messageId = useId();
  const [value, setValue] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const at = instantOfLocal(value);
    if (!at) {
      setMessage('Please choose a date and time');
      return;
    }
    setPending(true);
    try {
      const folded = await entityHistoryApi.state(kind, id, `at=${encodeURIComponent(at)}`);
      if (folded.revision === null) setMessage(`The ${entityKindLabels[kind].toLowerCase()} did not exist yet on ${exactTime(at)}`);
      else if (folded.revision > loaded) setMessage(`Revision ${folded.revision}: load later events to see it`);
      else {
        setMessage(`As it was on ${exactTime(at)}: revision ${folded.revision}`);
        onRevision(folded.revision);
      }
    } catch (error) {
      setMessage(errorMessage(error, 'The state at that time could not be loaded.'));
    } finally {
      setPending(false);
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)} aria-label="Go to a date and time" className={panelClasses}>
      <div className="flex flex-wrap items-end gap-2">
        <div className="flex flex-col gap-1">
          <Label htmlFor={fieldId}>As it was on</Label>
          <Input
            id={fieldId}
            type="datetime-local"
            value={value}
            onChange={(event) => setValue(event.target.value)}
            aria-describedby={message ? messageId : undefined}
          />
        </div>
        <Button type="submit" variant="outline" size="sm" disabled={pending}>
          {pending ? 'Going...' : 'Go'}
        </Button>
      </div>
      {message ? (
        <p id={messageId} className="mt-2 text-xs text-slate-600" role="status">
          {message}
        </p>
      ) : null}
    </form>
  );
}

function RevisionStepper({ list, revision, onChange }: { list: HistoryEvent[]; revision: number; onChange: (revision: number) => void }) {
  const sliderId = useId();
  const head = list.length - 1;
  const event = list[revision] as HistoryEvent;
  return (
    <section aria-label="Step through time" className={panelClasses}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Label htmlFor={sliderId}>
          Revision <span className="tabular-nums">{revision}</span> of {head}
        </Label>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" disabled={revision <= 0} onClick={() => onChange(revision - 1)}>
            <ChevronLeft aria-hidden="true" />
            Previous event
          </Button>
          <Button variant="outline" size="sm" disabled={revision >= head} onClick={() => onChange(revision + 1)}>
            Next event
            <ChevronRight aria-hidden="true" />
          </Button>
        </div>
      </div>
      <input
        id={sliderId}
        type="range"
        min={0}
        max={head}
        step={1}
        value={revision}
        disabled={head === 0}
        aria-valuetext={`Revision ${revision}: ${event.type}`}
        onChange={(e) => onChange(Number(e.target.value))}
        className="mt-3 w-full accent-brand-700"
      />
    </section>
  );
}

function StateAtRevision({
  kind,
  id,
  event,
  firstRecordedAt,
}: {
  kind: EntityKind;
  id: string;
  event: HistoryEvent;
  firstRecordedAt: string;
}) {
  const point = `revision=${event.revision}`;
  // Before the first event the entity is its initial state: the instant just before it names that.
  const previous =
    event.revision > 0
      ? `revision=${event.revision - 1}`
      : `at=${encodeURIComponent(new Date(Date.parse(firstRecordedAt) - 1).toISOString())}`;
  const after = useQuery({
    queryKey: entityHistoryApi.stateKey(kind, id, point),
    queryFn: ({ signal }) => entityHistoryApi.state(kind, id, point, signal),
    placeholderData: keepPreviousData,
  });
  const before = useQuery({
    queryKey: entityHistoryApi.stateKey(kind, id, previous),
    queryFn: ({ signal }) => entityHistoryApi.state(kind, id, previous, signal),
    placeholderData: keepPreviousData,
  });
  const changes =
    after.data && before.data && !after.isPlaceholderData && !before.isPlaceholderData
      ? stateDiff(before.data.state, after.data.state)
      : null;

  return (
    <div className="grid min-w-0 gap-4 xl:grid-cols-2">
      <section aria-labelledby="history-changes" className={cn(panelClasses, 'min-w-0')}>
        <h3 id="history-changes" className="text-sm font-semibold text-slate-900">
          What #{event.revision} {eventTypeLabel(event.type)} changed
        </h3>
        <p className="mt-1 text-xs break-words text-slate-600">
          {readableText(event.description)} · <time dateTime={event.recordedAt}>{exactTime(event.recordedAt)}</time> · {actorOf(event)}
        </p>
        {after.isError || before.isError ? (
          <div className="mt-2">
            <LoadError
              title="The state could not be folded"
              message={errorMessage(after.error ?? before.error, 'The server did not answer as expected.')}
            />
          </div>
        ) : changes === null ? (
          <div className="mt-2 h-16 animate-pulse rounded-md bg-slate-100" aria-busy="true" />
        ) : changes.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">Nothing in the state changed (the event is kept as a record).</p>
        ) : (
          <ul className="mt-2 space-y-1.5 text-xs" data-testid="history-changes">
            {changes.map((change) => (
              <li key={change.path} className="rounded bg-slate-50 p-2 break-all">
                <span className="font-mono font-medium text-slate-900">{change.path}</span>
                <span className="block text-red-700" title={change.before ?? undefined}>
                  <span className="sr-only">before: </span>− {stateValue(change.path, change.before)}
                </span>
                <span className="block text-green-800" title={change.after ?? undefined}>
                  <span className="sr-only">after: </span>+ {stateValue(change.path, change.after)}
                </span>
              </li>
            ))}
          </ul>
        )}
        <details className="mt-3 text-xs">
          <summary className="cursor-pointer font-medium text-slate-700">Event data and ids</summary>
          <pre className="mt-2 rounded bg-slate-50 p-2 break-all whitespace-pre-wrap">
            {json({
              data: event.data,
              commandId: event.commandId,
              correlationId: event.correlationId,
              causationId: event.causationId,
              position: event.position,
            })}
          </pre>
        </details>
      </section>
      <section aria-labelledby="history-state" className={cn(panelClasses, 'min-w-0')}>
        <h3 id="history-state" className="flex items-center gap-2 text-sm font-semibold text-slate-900">
          State after revision {event.revision}
          {after.isFetching ? <Loader2 className="size-3.5 animate-spin text-slate-400" aria-label="Loading" /> : null}
        </h3>
        {after.data ? (
          <section
            aria-label={`Folded state after revision ${event.revision}`}
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable)
            tabIndex={0}
            className="mt-2 max-h-[28rem] overflow-y-auto rounded bg-slate-50 p-2"
          >
            <pre className="text-xs break-all whitespace-pre-wrap" data-testid="history-state" data-revision={after.data.revision ?? ''}>
              {json(after.data.state)}
            </pre>
          </section>
        ) : after.isError ? null : (
          <div className="mt-2 h-32 animate-pulse rounded-md bg-slate-100" aria-busy="true" />
        )}
      </section>
    </div>
  );
}

function CorrelationStory({ correlationId }: { correlationId: string }) {
  const openHistory = useOpenEntityHistory();
  const story = useQuery({
    queryKey: entityHistoryApi.correlationKey(correlationId),
    queryFn: ({ signal }) => entityHistoryApi.correlation(correlationId, signal),
  });
  if (story.isPending) return <div className="mt-3 h-16 animate-pulse rounded-md bg-slate-100" aria-busy="true" />;
  if (story.isError)
    return (
      <div className="mt-3">
        <LoadError
          title="The story could not be loaded"
          message={errorMessage(story.error, 'The server did not answer as expected.')}
          onRetry={() => void story.refetch()}
        />
      </div>
    );
  return (
    <div className="mt-3">
      <p className="text-xs text-slate-600">
        Every event recorded under correlation <code className="break-all">{correlationId}</code>, in the order they happened
        {story.data.truncated ? ' (the first 1,000)' : ''}.
      </p>
      <ol className="mt-2 space-y-1.5" data-testid="history-story">
        {story.data.events.map((event) => (
          <li key={event.position} className="flex flex-wrap items-start justify-between gap-2 rounded bg-slate-50 p-2 text-sm">
            <div className="min-w-0">
              <div className="font-medium break-all text-slate-900" title={event.type}>
                {eventTypeLabel(event.type)}
              </div>
              <div className="text-xs break-words text-slate-600">{readableText(event.description)}</div>
              <div className="text-xs break-all text-slate-500">
                <time dateTime={event.recordedAt}>{exactTime(event.recordedAt)}</time> · {event.streamId}
              </div>
            </div>
            {event.entity ? (
              <Button
                variant="link"
                size="sm"
                className="h-auto px-0"
                onClick={() => event.entity && openHistory(event.entity.kind, event.entity.id)}
                aria-label={`Open the history of ${entityKindLabels[event.entity.kind].toLowerCase()} ${event.entity.id}`}
              >
                Open {entityKindLabels[event.entity.kind].toLowerCase()}
              </Button>
            ) : null}
          </li>
        ))}
      </ol>
    </div>
  );
}

/** "Open entity": any entity's history by kind and id, from the console or from inside a history. */
export function OpenEntityForm({ compact = false, initialKind = 'session' }: { compact?: boolean; initialKind?: EntityKind }) {
  const openHistory = useOpenEntityHistory();
  const [kind, setKind] = useState<EntityKind>(initialKind);
  const [id, setId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const ids = { kind: useId(), id: useId(), error: useId() };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = id.trim();
    if (!ENTITY_ID_PATTERN.test(value)) {
      setError(value ? 'Ids are letters, digits and . _ : @ - only' : 'Enter the id of the entity');
      return;
    }
    setError(null);
    openHistory(kind, value);
  };
  return (
    <form
      onSubmit={submit}
      aria-label="Open entity"
      className={cn('flex min-w-0 flex-wrap items-end gap-2', compact ? '' : panelClasses)}
      noValidate
    >
      <div className="flex w-full flex-col gap-1 sm:w-44">
        <Label htmlFor={ids.kind}>Entity kind</Label>
        <select id={ids.kind} className={selectClasses} value={kind} onChange={(e) => setKind(e.target.value as EntityKind)}>
          {entityKinds.map((k) => (
            <option key={k} value={k}>
              {entityKindLabels[k]}
            </option>
          ))}
        </select>
      </div>
      <div className="flex min-w-0 flex-1 basis-48 flex-col gap-1">
        <Label htmlFor={ids.id}>Entity id</Label>
        <Input
          id={ids.id}
          value={id}
          onChange={(e) => setId(e.target.value)}
          maxLength={160}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? ids.error : undefined}
        />
      </div>
      <Button type="submit" variant={compact ? 'outline' : 'default'}>
        <Search aria-hidden="true" />
        Open entity
      </Button>
      {error ? (
        <p id={ids.error} role="alert" className="w-full text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </form>
  );
}
