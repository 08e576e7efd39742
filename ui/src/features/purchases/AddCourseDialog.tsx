import { zodResolver } from '@hookform/resolvers/zod';
import { allowedGradeTiers } from '@shared/accounts/studentDecider.ts';
import { type GradeLevel, gradeLevelLabels, gradeLevels } from '@shared/subjects/gradeLevels.ts';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { ArrowRight, Plus } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import type { User } from '../../app/auth/types.ts';
import { FieldMessage, selectClasses } from '../../components/FieldMessage.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/parts.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { Label } from '../../components/ui/label.tsx';
import type { StudentCourse } from '../courses/api.ts';
import { purchasesApi } from './api.ts';
import { dollars, savePendingEnrollment } from './storage.ts';

/** Spec part 2 §5 "Repurchase/enrol form". */
const addCourseSchema = z.object({
  gradeTier: z.string().min(1, 'Please choose a grade level'),
  subjectId: z.string().min(1, 'Please select a subject'),
  packageId: z.string().min(1, 'Please select a package'),
});
type AddCourseValues = z.output<typeof addCourseSchema>;

/**
 * The Add Course dialog of the student dashboard (spec part 2 §2, §5): the student's grade gives
 * the allowed grade tiers; the tier gives the subjects (not already in an open course) and the
 * packages. Submitting saves the pending enrollment (local storage) and opens /checkout.
 */
export function AddCourseDialog({
  user,
  courses,
  label = 'Add Course',
}: {
  user: User;
  courses: readonly StudentCourse[];
  /** The trigger's text ("Buy a package" on the parent dashboard, for one student). */
  label?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button size="sm" onClick={() => setOpen(true)}>
        <Plus aria-hidden="true" />
        {label}
      </Button>
      <DialogContent aria-describedby="add-course-description">
        <DialogHeader>
          <DialogTitle>Add Course</DialogTitle>
          <DialogDescription id="add-course-description">
            Choose a level, a subject and a package; you pay on the next page and then choose your tutor.
          </DialogDescription>
        </DialogHeader>
        {open ? <AddCourseForm user={user} courses={courses} onCancel={() => setOpen(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function AddCourseForm({ user, courses, onCancel }: { user: User; courses: readonly StudentCourse[]; onCancel: () => void }) {
  const navigate = useNavigate();
  const student = user.student;
  const tiers = gradeLevels.filter((level) => allowedGradeTiers(student?.grade ?? '').includes(level));
  const subjects = useQuery({ queryKey: purchasesApi.subjectsKey, queryFn: purchasesApi.subjects });
  // Only what a listed tutor teaches is on sale; the rest of the level is shown, honestly, as not yet.
  const taught = useQuery({ queryKey: purchasesApi.subjectsWithTutorsKey, queryFn: purchasesApi.subjectsWithTutors });
  const packages = useQuery({ queryKey: purchasesApi.packagesKey, queryFn: purchasesApi.packages });
  const {
    register,
    handleSubmit,
    watch,
    setValue,
    formState: { errors },
  } = useForm<AddCourseValues>({
    resolver: zodResolver(addCourseSchema),
    defaultValues: { gradeTier: tiers.length === 1 ? (tiers[0] ?? '') : '', subjectId: '', packageId: '' },
  });
  const tier = watch('gradeTier');
  const taken = new Set(courses.filter((c) => c.status !== 'inactive').map((c) => c.subjectId));
  const withTutor = new Set((taught.data ?? []).map((s) => s.id));
  const levelSubjects = (subjects.data ?? []).filter((s) => s.gradeLevel === tier && !taken.has(s.id));
  const tierSubjects = levelSubjects.filter((s) => withTutor.has(s.id));
  const untaught = levelSubjects.filter((s) => !withTutor.has(s.id));
  const tierPackages = (packages.data ?? []).filter((p) => p.gradeTier.id === tier);

  if (!student || tiers.length === 0) {
    return (
      <p className="text-sm text-slate-700">
        Set your grade in the Account dialog first: it decides which levels and packages you can choose.
      </p>
    );
  }
  if (subjects.isError || packages.isError || taught.isError) {
    return (
      <LoadError
        title="Failed to load courses"
        onRetry={() => {
          void subjects.refetch();
          void packages.refetch();
          void taught.refetch();
        }}
      />
    );
  }
  if (!subjects.data || !packages.data || !taught.data) return <Loading label="Loading subjects and packages..." />;

  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={handleSubmit((values) => {
        const subject = tierSubjects.find((s) => s.id === values.subjectId);
        const pkg = tierPackages.find((p) => p.id === values.packageId);
        if (!subject || !pkg) return;
        savePendingEnrollment({
          packageId: pkg.id,
          studentId: student.id,
          subjectId: subject.id,
          subjectInfo: { name: subject.name },
          packageInfo: { name: pkg.name, sessionCount: pkg.sessionCount, totalPrice: pkg.totalPrice },
        });
        void navigate({ to: '/checkout' });
      })}
    >
      <div className="space-y-2">
        <Label htmlFor="add-course-tier">Level</Label>
        <select
          id="add-course-tier"
          className={selectClasses}
          aria-invalid={errors.gradeTier ? true : undefined}
          aria-describedby={errors.gradeTier ? 'add-course-tier-error' : undefined}
          {...register('gradeTier', {
            onChange: () => {
              setValue('subjectId', '');
              setValue('packageId', '');
            },
          })}
        >
          <option value="">Select a level</option>
          {tiers.map((level: GradeLevel) => (
            <option key={level} value={level}>
              {gradeLevelLabels[level]}
            </option>
          ))}
        </select>
        <FieldMessage id="add-course-tier-error" error={errors.gradeTier} />
      </div>
      <div className="space-y-2">
        <Label htmlFor="add-course-subject">Subject</Label>
        <select
          id="add-course-subject"
          className={selectClasses}
          aria-invalid={errors.subjectId ? true : undefined}
          aria-describedby={
            [errors.subjectId ? 'add-course-subject-error' : null, untaught.length > 0 ? 'add-course-untaught' : null]
              .filter(Boolean)
              .join(' ') || undefined
          }
          {...register('subjectId')}
        >
          <option value="">{tier ? 'Select a subject' : 'Select a level first'}</option>
          {tierSubjects.map((subject) => (
            <option key={subject.id} value={subject.id}>
              {subject.name}
            </option>
          ))}
          {untaught.map((subject) => (
            <option key={subject.id} value={subject.id} disabled>
              {subject.name} (No tutor yet)
            </option>
          ))}
        </select>
        <FieldMessage id="add-course-subject-error" error={errors.subjectId} />
        {untaught.length > 0 ? (
          <p id="add-course-untaught" className="text-xs text-slate-600">
            Subjects marked “No tutor yet” cannot be bought until a tutor teaches them.
          </p>
        ) : null}
      </div>
      <div className="space-y-2">
        <Label htmlFor="add-course-package">Package</Label>
        <select
          id="add-course-package"
          className={selectClasses}
          aria-invalid={errors.packageId ? true : undefined}
          aria-describedby={errors.packageId ? 'add-course-package-error' : undefined}
          {...register('packageId')}
        >
          <option value="">{tier ? 'Select a package' : 'Select a level first'}</option>
          {tierPackages.map((pkg) => (
            <option key={pkg.id} value={pkg.id}>
              {pkg.name} · {pkg.sessionCount} sessions · {dollars(pkg.totalPrice)}
            </option>
          ))}
        </select>
        <FieldMessage id="add-course-package-error" error={errors.packageId} />
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit">
          Continue to checkout
          <ArrowRight aria-hidden="true" />
        </Button>
      </DialogFooter>
    </form>
  );
}
