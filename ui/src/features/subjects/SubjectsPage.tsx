import { subjectTutorStatsSchema } from '@shared/courses/courseTutorApi.ts';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ArrowRight, Star, Users } from 'lucide-react';
import { jsonQuery } from '../../app/api.ts';
import { AppLink } from '../../app/layout/AppLink.tsx';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { CallToAction } from '../../components/marketing/CallToAction.tsx';
import { PageHeader, Section } from '../../components/marketing/PageHeader.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { buttonVariants } from '../../components/ui/button.tsx';
import { Card, CardContent, CardFooter } from '../../components/ui/card.tsx';
import { allFigures, type SubjectFigures, subjectCountsByLevel, subjectFigures, subjects } from './subjects.ts';

const statsKey = ['/api/subjects/tutor-stats'] as const;
const fetchStats = jsonQuery('/api/subjects/tutor-stats', subjectTutorStatsSchema);

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const levelNotes: Record<string, string> = {
  'Grade 10 & Under': 'Foundations, study skills and confidence before the senior years.',
  'Grade 11-12': 'Senior courses, university-preparation marks and exam readiness.',
  University: 'College and university courses, problem sets and exam preparation.',
};

export function SubjectsPage() {
  useDocumentTitle('Subjects');
  const counts = subjectCountsByLevel();
  // Real figures (issue 24): the listed tutors teaching each subject and their reviews, not marketing numbers.
  const stats = useQuery({ queryKey: statsKey, queryFn: fetchStats });
  const figuresOf = (subject: (typeof subjects)[number]): SubjectFigures | null =>
    stats.data ? subjectFigures(subject, stats.data) : null;
  const totalTutors = stats.data ? allFigures(subjects, stats.data).tutorCount : null;

  return (
    <>
      <PageHeader
        eyebrow="Subjects"
        title="Expert tutors in eight core subjects"
        lead="Whether it is Grade 9 science or a third-year finance course, we match you with a tutor who specialises in your subject and knows the curriculum at your level."
      />

      <section aria-labelledby="levels-heading" className="bg-white pb-4">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <h2 id="levels-heading" className="sr-only">
            Subjects by level
          </h2>
          <ul className="grid gap-4 sm:grid-cols-3">
            {counts.map(({ levelId, level, count }) => (
              <li
                key={level}
                className="rounded-[var(--radius-card)] border border-border bg-slate-50 p-5"
                aria-label={`${level}: ${count} subjects`}
              >
                <p className="text-sm font-medium text-brand-800">{level}</p>
                <p className="mt-1 text-3xl font-bold tracking-tight text-slate-900" data-testid={`subject-count-${levelId}`}>
                  {count} subjects
                </p>
                <p className="mt-1 text-sm text-slate-600">{levelNotes[level]}</p>
              </li>
            ))}
          </ul>
          {totalTutors !== null && totalTutors > 0 ? (
            <p className="mt-4 text-sm text-slate-600" data-testid="subjects-total-tutors">
              {plural(totalTutors, 'subject specialist', 'subject specialists')} teaching today, every one reviewed and interviewed before
              teaching.
            </p>
          ) : null}
        </div>
      </section>

      <Section
        id="all-subjects"
        title="Find your subject"
        intro="Each card lists the levels we teach and a sample of the topics tutors cover most often."
      >
        <ul className="grid gap-6 md:grid-cols-2 xl:grid-cols-3">
          {subjects.map((subject) => {
            const Icon = subject.icon;
            const untaught = figuresOf(subject)?.tutorCount === 0;
            return (
              <li key={subject.id} id={subject.id} className="scroll-mt-24">
                <Card className="h-full">
                  <CardContent className="flex-1">
                    <div className="flex items-start justify-between gap-4">
                      <span className="inline-flex size-12 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
                        <Icon className="size-6" aria-hidden="true" />
                      </span>
                      <SubjectFiguresBlock figures={figuresOf(subject)} />
                    </div>
                    <h3 className="mt-5 text-xl font-semibold text-slate-900">{subject.name}</h3>
                    <p className="mt-2 text-sm leading-relaxed text-slate-600">{subject.description}</p>

                    <h4 className="mt-5 text-xs font-semibold tracking-wide text-slate-700 uppercase">Levels</h4>
                    <ul className="mt-2 flex flex-wrap gap-2">
                      {subject.levels.map((level) => (
                        <li key={level}>
                          <Badge variant="secondary">{level}</Badge>
                        </li>
                      ))}
                    </ul>

                    <h4 className="mt-5 text-xs font-semibold tracking-wide text-slate-700 uppercase">Topics</h4>
                    <ul className="mt-2 grid gap-1.5 text-sm text-slate-700">
                      {subject.topics.map((topic) => (
                        <li key={topic} className="flex gap-2">
                          <span className="mt-2 size-1.5 shrink-0 rounded-full bg-brand-500" aria-hidden="true" />
                          {topic}
                        </li>
                      ))}
                    </ul>
                  </CardContent>
                  <CardFooter>
                    {untaught ? (
                      <Link
                        to="/contact"
                        className={buttonVariants({ variant: 'outline', className: 'w-full' })}
                        aria-label={`Ask us about ${subject.name}: no tutor teaches it yet`}
                      >
                        Ask us about {subject.name}
                      </Link>
                    ) : (
                      <AppLink
                        to="/login"
                        className={buttonVariants({ className: 'w-full' })}
                        aria-label={`Find a tutor for ${subject.name}`}
                      >
                        Find a tutor
                        <ArrowRight aria-hidden="true" />
                      </AppLink>
                    )}
                  </CardFooter>
                </Card>
              </li>
            );
          })}
        </ul>
      </Section>

      <Section
        id="not-listed"
        tone="muted"
        title="Not sure which subject or level fits?"
        intro="Tell us about the course, the school or program, and what is proving difficult. We will point you to the right tutor and package, and we reply within 24 hours."
      >
        <div className="flex flex-col gap-3 sm:flex-row">
          <Link to="/contact" className={buttonVariants({ size: 'lg' })}>
            Contact us
          </Link>
          <Link to="/pricing" className={buttonVariants({ variant: 'outline', size: 'lg' })}>
            See pricing
          </Link>
        </div>
      </Section>

      <CallToAction />
    </>
  );
}

/** A card's tutor count and rating; while loading, a quiet placeholder (never an invented figure). */
function SubjectFiguresBlock({ figures }: { figures: SubjectFigures | null }) {
  if (!figures) return <span className="h-10 w-20 animate-pulse rounded bg-slate-100" aria-hidden="true" />;
  if (figures.tutorCount === 0)
    return (
      <Badge variant="outline" data-testid="subject-tutors">
        No tutor yet
      </Badge>
    );
  return (
    <div className="flex flex-col items-end gap-1 text-sm">
      <span className="inline-flex items-center gap-1 font-semibold text-slate-900" data-testid="subject-rating">
        <Star className="size-4 fill-amber-400 text-amber-500" aria-hidden="true" />
        {figures.rating === null ? (
          <span>New</span>
        ) : (
          <span>
            {figures.rating.toFixed(1)}
            <span className="sr-only"> out of 5 average rating</span>
            <span className="font-normal text-slate-600"> ({plural(figures.reviewCount, 'review', 'reviews')})</span>
          </span>
        )}
      </span>
      <span className="inline-flex items-center gap-1 text-slate-600" data-testid="subject-tutors">
        <Users className="size-4" aria-hidden="true" />
        {plural(figures.tutorCount, 'tutor', 'tutors')}
      </span>
    </div>
  );
}
