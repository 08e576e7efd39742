import { type GradeLevel, gradeLevelLabels, gradeLevels } from '@shared/subjects/gradeLevels.ts';
import type { TutorListEntry } from '@shared/tutors/tutorApi.ts';
import { useQuery } from '@tanstack/react-query';
import { GraduationCap, Star, UserSearch } from 'lucide-react';
import { useId, useState } from 'react';
import { serverMessage } from '../../app/api.ts';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { selectClasses } from '../../components/FieldMessage.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { PageHeader } from '../../components/marketing/PageHeader.tsx';
import { initials, Skeleton } from '../../components/parts.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent } from '../../components/ui/card.tsx';
import { tutorKeys, tutorsApi } from './api.ts';

/** Spec part 2 §9: six placeholders while tutors load; at most three subjects on a card. */
const SKELETONS = 6;
const MAX_SUBJECTS = 3;
export const BIO_FALLBACK = 'Experienced tutor ready to help you succeed.';

/** /tutors "Meet Our Tutors" (public): approved tutors by subject and grade level. */
export function TutorsDirectoryPage() {
  useDocumentTitle('Meet Our Tutors');
  const id = useId();
  const [subjectId, setSubjectId] = useState('');
  const [gradeLevel, setGradeLevel] = useState<GradeLevel | ''>('');
  const subjects = useQuery({ queryKey: tutorKeys.subjects, queryFn: tutorsApi.subjects });
  const tutors = useQuery({
    queryKey: tutorKeys.directory(subjectId, gradeLevel),
    queryFn: () => tutorsApi.directory(subjectId, gradeLevel),
  });
  const filtered = subjectId !== '' || gradeLevel !== '';
  const subjectsShown = (subjects.data ?? []).filter((s) => gradeLevel === '' || s.gradeLevel === gradeLevel);

  return (
    <>
      <PageHeader
        eyebrow="Our tutors"
        title="Meet Our Tutors"
        lead="Every Topmark tutor is reviewed and interviewed before they teach. Filter by subject and grade level to find the right fit."
      />
      <section aria-label="Tutors" className="bg-white pb-16">
        <div className="mx-auto grid max-w-7xl gap-6 px-4 sm:px-6 lg:px-8">
          <form
            className="grid gap-3 rounded-[var(--radius-card)] border border-border bg-slate-50 p-4 sm:grid-cols-[1fr_1fr_auto] sm:items-end"
            onSubmit={(e) => e.preventDefault()}
          >
            <div className="grid gap-1.5">
              <label htmlFor={`${id}-subject`} className="text-sm font-medium">
                Subject
              </label>
              <select
                id={`${id}-subject`}
                className={selectClasses}
                value={subjectId}
                disabled={subjects.isPending}
                onChange={(e) => setSubjectId(e.target.value)}
              >
                <option value="">
                  {subjects.isPending ? 'Loading subjects...' : subjects.isError ? 'All subjects (list unavailable)' : 'All subjects'}
                </option>
                {subjectsShown.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </select>
            </div>
            <div className="grid gap-1.5">
              <label htmlFor={`${id}-level`} className="text-sm font-medium">
                Grade level
              </label>
              <select
                id={`${id}-level`}
                className={selectClasses}
                value={gradeLevel}
                onChange={(e) => {
                  const level = e.target.value as GradeLevel | '';
                  setGradeLevel(level);
                  const chosen = subjects.data?.find((s) => s.id === subjectId);
                  if (chosen && level !== '' && chosen.gradeLevel !== level) setSubjectId('');
                }}
              >
                <option value="">All levels</option>
                {gradeLevels.map((g) => (
                  <option key={g} value={g}>
                    {gradeLevelLabels[g]}
                  </option>
                ))}
              </select>
            </div>
            <Button
              type="button"
              variant="outline"
              disabled={!filtered}
              onClick={() => {
                setSubjectId('');
                setGradeLevel('');
              }}
            >
              Clear filters
            </Button>
          </form>

          {tutors.isPending ? (
            <TutorCardSkeletons />
          ) : tutors.isError ? (
            <LoadError
              title="Could not load tutors"
              message={serverMessage(tutors.error, 'Please try again.')}
              onRetry={() => void tutors.refetch()}
              retrying={tutors.isRefetching}
            />
          ) : tutors.data.length === 0 ? (
            <div className="flex flex-col items-center gap-2 rounded-[var(--radius-card)] border border-dashed border-border px-4 py-12 text-center">
              <UserSearch className="size-10 text-slate-400" aria-hidden="true" />
              <h2 className="text-lg font-semibold text-slate-900">No tutors found</h2>
              <p className="text-slate-600">
                {filtered ? 'Try another subject or grade level.' : 'No tutors are currently available. Please check back soon.'}
              </p>
            </div>
          ) : (
            <>
              <p className="text-sm text-slate-600" aria-live="polite">
                {tutors.data.length} tutor{tutors.data.length === 1 ? '' : 's'}
              </p>
              <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
                {tutors.data.map((t) => (
                  <li key={t.id}>
                    <TutorCard tutor={t} />
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      </section>
    </>
  );
}

function Avatar({ tutor }: { tutor: TutorListEntry }) {
  const [broken, setBroken] = useState(false);
  const { firstName, lastName, profileImage } = tutor.user;
  if (profileImage && !broken) {
    return (
      <img
        src={profileImage}
        alt=""
        onError={() => setBroken(true)}
        className="size-14 shrink-0 rounded-full border border-border object-cover"
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className="inline-flex size-14 shrink-0 items-center justify-center rounded-full bg-brand-700 text-lg font-semibold text-white"
    >
      {initials(firstName, lastName)}
    </span>
  );
}

/** A tutor card as the spec's tutor selection shows it (part 2 §2), without the select button. */
export function TutorCard({ tutor }: { tutor: TutorListEntry }) {
  const name = `${tutor.user.firstName} ${tutor.user.lastName}`.trim();
  const shown = tutor.subjects.slice(0, MAX_SUBJECTS);
  const more = tutor.subjects.length - shown.length;
  return (
    <Card className="h-full" data-testid="tutor-card">
      <CardContent className="flex h-full flex-col gap-4">
        <div className="flex items-center gap-3">
          <Avatar tutor={tutor} />
          <div className="min-w-0">
            <h2 className="truncate text-lg font-semibold text-slate-900">{name}</h2>
            <div className="mt-0.5 flex flex-wrap items-center gap-2 text-sm text-slate-600">
              <span className="inline-flex items-center gap-1">
                <Star className="size-4 fill-amber-400 text-amber-500" aria-hidden="true" />
                {tutor.rating === null ? (
                  'New'
                ) : (
                  <>
                    <span className="sr-only">Rated </span>
                    {tutor.rating.toFixed(1)}
                    <span className="sr-only"> out of 5</span>
                  </>
                )}
                {tutor.reviewCount > 0 ? (
                  <span className="text-slate-500">
                    ({tutor.reviewCount} {tutor.reviewCount === 1 ? 'review' : 'reviews'})
                  </span>
                ) : null}
              </span>
              {tutor.totalSessions > 0 ? (
                <Badge variant="secondary">
                  {tutor.totalSessions} session{tutor.totalSessions === 1 ? '' : 's'}
                </Badge>
              ) : null}
            </div>
          </div>
        </div>
        <p className="line-clamp-4 text-sm leading-relaxed text-slate-700">{tutor.bio?.trim() || BIO_FALLBACK}</p>
        <div className="mt-auto grid gap-3">
          {tutor.subjects.length > 0 ? (
            <ul className="flex flex-wrap gap-1.5" aria-label={`Subjects ${name} teaches`}>
              {shown.map((s) => (
                <li key={s.id}>
                  <Badge variant="outline">{s.name}</Badge>
                </li>
              ))}
              {more > 0 ? (
                <li>
                  <Badge variant="outline">+{more} more</Badge>
                </li>
              ) : null}
            </ul>
          ) : null}
          {tutor.experience !== null ? (
            <p className="flex items-center gap-1.5 text-sm text-slate-600">
              <GraduationCap className="size-4" aria-hidden="true" />
              {tutor.experience} year{tutor.experience === 1 ? '' : 's'} of experience
            </p>
          ) : null}
        </div>
      </CardContent>
    </Card>
  );
}

/** Six tutor-shaped placeholders while tutors load (spec part 2 §2, §9). */
export function TutorCardSkeletons() {
  return (
    <ul role="status" aria-label="Loading tutors" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {Array.from({ length: SKELETONS }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders
        <li key={i}>
          <Card>
            <CardContent className="grid gap-3">
              <div className="flex items-center gap-3">
                <Skeleton className="size-14 rounded-full" />
                <div className="grid flex-1 gap-2">
                  <Skeleton className="h-4 w-2/3" />
                  <Skeleton className="h-3 w-1/3" />
                </div>
              </div>
              <Skeleton className="h-12 w-full" />
              <Skeleton className="h-5 w-1/2" />
            </CardContent>
          </Card>
        </li>
      ))}
    </ul>
  );
}
