import { type GradeLevel, gradeLevelLabels, gradeLevels } from '@shared/subjects/gradeLevels.ts';
import { AUTO_SELECTED_MESSAGE, AUTO_SELECTED_TITLE, type Qualification, qualificationPolicy } from '@shared/subjects/qualifications.ts';
import { AT_LEAST_ONE_SUBJECT } from '@shared/tutors/tutorDecider.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Info } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { serverMessage } from '../../app/api.ts';
import { checkboxClasses, FieldMessage, selectClasses } from '../../components/FieldMessage.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { PendingButton, Skeleton } from '../../components/parts.tsx';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { type CatalogSubject, tutorKeys, tutorsApi } from './api.ts';

/** Categories A–Z with their subjects A–Z (an area's levels side by side); a subject without one is under "Other", last. */
function byCategory(subjects: readonly CatalogSubject[]): [string, CatalogSubject[]][] {
  const groups = new Map<string, CatalogSubject[]>();
  for (const s of subjects) {
    const category = s.category?.trim() || 'Other';
    groups.set(category, [...(groups.get(category) ?? []), s]);
  }
  const byName = (a: CatalogSubject, b: CatalogSubject) => a.name.localeCompare(b.name, 'en', { numeric: true });
  const entries = [...groups.entries()]
    .map(([c, list]): [string, CatalogSubject[]] => [c, list.sort(byName)])
    .sort(([a], [b]) => a.localeCompare(b));
  // "Other" goes last.
  return [...entries.filter(([c]) => c !== 'Other'), ...entries.filter(([c]) => c === 'Other')];
}

/**
 * The teaching subjects editor (spec part 2 §2, §4, §5) of onboarding and the dashboard: the
 * catalogue grouped by category, a checkbox and a grade-level select per subject; the
 * qualification policy selects a university subject's lower-level equivalents (with its toast)
 * and unchecking removes the subjects that depended on it.
 */
export function SubjectsEditor({ submitLabel = 'Save subjects', onSaved }: { submitLabel?: string; onSaved?: () => void }) {
  const catalogue = useQuery({ queryKey: tutorKeys.subjects, queryFn: tutorsApi.subjects });
  const saved = useQuery({ queryKey: tutorKeys.mySubjects, queryFn: tutorsApi.mySubjects });

  if (catalogue.isPending || saved.isPending) {
    return (
      <div role="status" aria-label="Loading subjects" className="grid gap-3">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-12 w-full" />
        ))}
      </div>
    );
  }
  if (catalogue.isError || saved.isError) {
    return (
      <LoadError
        title="Could not load subjects"
        onRetry={() => {
          void catalogue.refetch();
          void saved.refetch();
        }}
        retrying={catalogue.isRefetching || saved.isRefetching}
      />
    );
  }
  return (
    <SubjectsForm
      key={saved.dataUpdatedAt}
      subjects={catalogue.data}
      initial={saved.data.map((q) => ({ subjectId: q.subjectId, maxGradeLevel: q.maxGradeLevel }))}
      submitLabel={submitLabel}
      onSaved={onSaved}
    />
  );
}

function SubjectsForm({
  subjects,
  initial,
  submitLabel,
  onSaved,
}: {
  subjects: CatalogSubject[];
  initial: Qualification[];
  submitLabel: string;
  onSaved?: (() => void) | undefined;
}) {
  const queryClient = useQueryClient();
  const id = useId();
  const policy = useMemo(() => qualificationPolicy(subjects), [subjects]);
  const groups = useMemo(() => byCategory(subjects), [subjects]);
  const [selected, setSelected] = useState<Qualification[]>(initial);
  const [error, setError] = useState<string | null>(null);
  const levelOf = new Map(selected.map((q) => [q.subjectId, q.maxGradeLevel]));

  const toggle = (subjectId: string, checked: boolean) => {
    setError(null);
    if (!checked) {
      setSelected((current) => policy.unselect(current, subjectId));
      return;
    }
    const { qualifications, autoSelected } = policy.select(selected, subjectId);
    setSelected(qualifications);
    if (autoSelected.length > 0) toast({ title: AUTO_SELECTED_TITLE, description: AUTO_SELECTED_MESSAGE });
  };
  const setLevel = (subjectId: string, level: GradeLevel) =>
    setSelected((current) => current.map((q) => (q.subjectId === subjectId ? { ...q, maxGradeLevel: level } : q)));

  const save = useMutation({
    mutationFn: () => tutorsApi.saveSubjects(selected),
    onSuccess: async (answer) => {
      queryClient.setQueryData(tutorKeys.mySubjects, answer);
      await queryClient.invalidateQueries({ queryKey: tutorKeys.mySubjects });
      await queryClient.invalidateQueries({ queryKey: tutorKeys.profile });
      toast({
        title: 'Subjects saved',
        description: `You teach ${answer.length} subject${answer.length === 1 ? '' : 's'}.`,
        variant: 'success',
      });
      onSaved?.();
    },
    onError: (e) => toast({ title: 'Failed to save subjects', description: serverMessage(e, 'Please try again.'), variant: 'destructive' }),
  });
  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    if (selected.length === 0) {
      setError(AT_LEAST_ONE_SUBJECT);
      return;
    }
    save.mutate();
  };

  if (subjects.length === 0) {
    return <p className="text-sm text-slate-600">No subjects are on offer yet. Please check back later.</p>;
  }

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-6">
      {groups.map(([category, list]) => (
        <fieldset key={category} className="grid gap-2">
          <legend className="mb-2 text-sm font-semibold tracking-wide text-slate-700 uppercase">{category}</legend>
          <ul className="grid gap-2 lg:grid-cols-2">
            {list.map((s) => {
              const level = levelOf.get(s.id);
              const checkId = `${id}-${s.id}`;
              return (
                <li key={s.id} className="flex flex-col gap-2 rounded-md border border-border bg-white p-3 sm:flex-row sm:items-start">
                  <div className="flex min-w-0 flex-1 items-start gap-2.5">
                    <input
                      id={checkId}
                      type="checkbox"
                      className={checkboxClasses}
                      checked={level !== undefined}
                      onChange={(e) => toggle(s.id, e.target.checked)}
                      aria-describedby={s.description ? `${checkId}-desc` : undefined}
                    />
                    <div className="min-w-0">
                      <label htmlFor={checkId} className="text-sm font-medium text-slate-900">
                        {s.name}
                      </label>
                      {s.description ? (
                        <p id={`${checkId}-desc`} className="text-xs text-slate-500">
                          {s.description}
                        </p>
                      ) : null}
                    </div>
                  </div>
                  {level !== undefined ? (
                    <div className="sm:w-44">
                      <label htmlFor={`${checkId}-level`} className="sr-only">
                        Grade level for {s.name}
                      </label>
                      <select
                        id={`${checkId}-level`}
                        className={selectClasses}
                        value={level}
                        onChange={(e) => setLevel(s.id, e.target.value as GradeLevel)}
                      >
                        {gradeLevels.map((g) => (
                          <option key={g} value={g}>
                            {gradeLevelLabels[g]}
                          </option>
                        ))}
                      </select>
                    </div>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </fieldset>
      ))}
      {selected.length > 0 ? (
        <Alert>
          <Info aria-hidden="true" />
          <AlertTitle>Your subjects are searchable tags</AlertTitle>
          <AlertDescription>
            Parents and students find tutors by subject, grade level and availability. The subjects and levels you choose here, with your
            weekly hours, decide which searches you appear in.
          </AlertDescription>
        </Alert>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <PendingButton type="submit" pending={save.isPending} label={submitLabel} pendingLabel="Saving..." />
        <p className="text-sm text-slate-600" aria-live="polite">
          {selected.length} selected
        </p>
      </div>
      <div role="alert">{error ? <FieldMessage id={`${id}-error`} error={{ message: error }} /> : null}</div>
    </form>
  );
}
