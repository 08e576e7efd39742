import type { StudentCourse } from '@shared/courses/courseApi.ts';
import { CalendarPlus } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { BookingDialog } from './BookingDialog.tsx';

/** A course can be booked on when it is open, has a tutor and a free credit. */
export function canBook(course: Pick<StudentCourse, 'status' | 'tutorId' | 'sessionsRemaining'>): boolean {
  return course.status !== 'inactive' && Boolean(course.tutorId) && course.sessionsRemaining > 0;
}

/**
 * "Book a session" for one course of the student area (the dashboard variant of the booking
 * dialog, spec part 2 §2); nothing when the course cannot be booked on.
 */
export function BookSessionButton({
  course,
  viewerZone,
  label = 'Book a session',
  onBooked,
}: {
  course: StudentCourse;
  viewerZone?: string;
  label?: string;
  onBooked?: () => void;
}) {
  const [open, setOpen] = useState(false);
  if (!canBook(course) || !course.tutorId) return null;
  const tutorName = course.tutor ? `${course.tutor.firstName} ${course.tutor.lastName}`.trim() : undefined;
  return (
    <>
      <Button size="sm" onClick={() => setOpen(true)} aria-label={`${label}: ${course.subject.name}`}>
        <CalendarPlus aria-hidden="true" />
        {label}
      </Button>
      <BookingDialog
        open={open}
        onOpenChange={setOpen}
        tutorId={course.tutorId}
        tutorName={tutorName}
        course={{ id: course.id, subjectName: course.subject.name }}
        viewerZone={viewerZone}
        onBooked={onBooked}
      />
    </>
  );
}
