import { zodResolver } from '@hookform/resolvers/zod';
import {
  ACCOUNT_FIELDS_REQUIRED,
  type StudentAccountInput,
  type StudentAccountPayload,
  studentAccountSchema,
  studentGradeOptions,
} from '@shared/accounts/accountApi.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CircleAlert, Loader2, Save } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { errorMessage } from '../../app/api.ts';
import type { User } from '../../app/auth/types.ts';
import { currentUserKey } from '../../app/auth/useCurrentUser.ts';
import { selectClasses } from '../../components/FieldMessage.tsx';
import { Alert, AlertDescription } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { accountsApi } from '../accounts/api.ts';

export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** "September" for 9; null when not set. */
export function monthName(month: number | null | undefined): string | null {
  return month && month >= 1 && month <= 12 ? (MONTHS[month - 1] ?? null) : null;
}

/** True when the student profile has no grade yet (e.g. created by Google sign-in). */
export function gradeMissing(user: User): boolean {
  return !user.student?.grade?.trim();
}

/**
 * The student Account dialog (spec part 2 §2, §5): grade (Grade 6 to 12, University/College) and
 * school year start month, both required ("Grade and school year start month are required");
 * PUT /api/student/{studentId}/account. Not offered to a view-only login (the server answers 403).
 */
export function StudentAccountDialog({
  user,
  open,
  onOpenChange,
  studentName,
}: {
  user: User;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** A parent's child (the dialog then speaks of them); absent for the student's own account. */
  studentName?: string;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent aria-describedby="student-account-description">
        <DialogHeader>
          <DialogTitle>{studentName ? `${studentName}'s grade` : 'Account'}</DialogTitle>
          <DialogDescription id="student-account-description">
            {studentName
              ? `${studentName}'s grade decides which tutoring levels and packages you can buy; the school year start month lets us follow the school year.`
              : 'Your grade decides which tutoring levels and packages you see; the school year start month lets us follow your school year.'}
          </DialogDescription>
        </DialogHeader>
        {/* Mounted only while open: every opening starts from the saved values. */}
        {open ? <StudentAccountForm user={user} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function StudentAccountForm({ user, onDone }: { user: User; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [serverError, setServerError] = useState<string | null>(null);
  const student = user.student;
  const savedGrade = student?.grade && (studentGradeOptions as readonly string[]).includes(student.grade) ? student.grade : '';
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<StudentAccountInput, unknown, StudentAccountPayload>({
    resolver: zodResolver(studentAccountSchema),
    defaultValues: {
      grade: savedGrade as StudentAccountInput['grade'],
      schoolYearStartMonth: student?.schoolYearStartMonth ? String(student.schoolYearStartMonth) : '',
    },
  });

  const save = useMutation({
    mutationFn: (payload: StudentAccountPayload) => {
      if (!student) throw new Error('No student profile');
      return accountsApi.updateStudentAccount(student.id, payload);
    },
    onSuccess: (updated) => {
      queryClient.setQueryData<User | null>(currentUserKey, (current) =>
        current?.student
          ? {
              ...current,
              student: {
                ...current.student,
                grade: updated.grade,
                schoolYearStartMonth: updated.schoolYearStartMonth,
                isUniversityStudent: updated.isUniversityStudent ?? current.student.isUniversityStudent,
              },
            }
          : current,
      );
      // The dashboard's student (and the levels it offers) follow the new grade.
      void queryClient.invalidateQueries({ queryKey: ['/api/student/dashboard'] });
      void queryClient.invalidateQueries({ queryKey: accountsApi.parentStudentsKey });
      toast({ title: 'Account updated', description: 'Your grade and school year are saved.', variant: 'success' });
      onDone();
    },
    onError: (error) => setServerError(errorMessage(error, 'Failed to update your account. Please try again.')),
  });

  // One message for the pair, as the spec words it.
  const invalid = Boolean(errors.grade || errors.schoolYearStartMonth);
  const describedBy = invalid ? 'student-account-error' : undefined;
  const pending = save.isPending;

  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={handleSubmit((values) => {
        setServerError(null);
        save.mutate(values);
      })}
    >
      <div className="space-y-2">
        <Label htmlFor="student-account-grade">Grade</Label>
        <select
          id="student-account-grade"
          className={selectClasses}
          aria-invalid={errors.grade ? true : undefined}
          aria-describedby={describedBy}
          {...register('grade')}
        >
          <option value="">Select a grade</option>
          {studentGradeOptions.map((grade) => (
            <option key={grade} value={grade}>
              {grade}
            </option>
          ))}
        </select>
      </div>
      <div className="space-y-2">
        <Label htmlFor="student-account-month">School year start month</Label>
        <select
          id="student-account-month"
          className={selectClasses}
          aria-invalid={errors.schoolYearStartMonth ? true : undefined}
          aria-describedby={describedBy}
          {...register('schoolYearStartMonth')}
        >
          <option value="">Select a month</option>
          {MONTHS.map((month, index) => (
            <option key={month} value={String(index + 1)}>
              {month}
            </option>
          ))}
        </select>
      </div>
      {invalid ? (
        <p id="student-account-error" role="alert" className="flex items-center gap-1.5 text-sm font-medium text-destructive-text">
          <CircleAlert className="size-4 shrink-0" aria-hidden="true" />
          {ACCOUNT_FIELDS_REQUIRED}
        </p>
      ) : null}
      {serverError ? (
        <Alert variant="destructive">
          <CircleAlert aria-hidden="true" />
          <AlertDescription>{serverError}</AlertDescription>
        </Alert>
      ) : null}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Save aria-hidden="true" />}
          {pending ? 'Saving...' : 'Save'}
        </Button>
      </DialogFooter>
    </form>
  );
}
