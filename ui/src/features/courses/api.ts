import { type EnrollmentStatus, enrollmentStatusSchema, type StudentCourse, studentCourseSchema } from '@shared/courses/courseApi.ts';
import { type CourseTutorStatus, courseTutorStatusSchema } from '@shared/courses/courseTutorApi.ts';
import { z } from 'zod';
import { api, jsonQuery } from '../../app/api.ts';

export type { CourseTutorStatus, EnrollmentStatus, StudentCourse };

const enc = encodeURIComponent;

/** A fresh key per attempt: a retried request is answered once (the server's Idempotency-Key). */
const idempotencyKey = () => ({ headers: { 'Idempotency-Key': crypto.randomUUID() } });

/**
 * A student's courses (spec part 2 §7 "Student, checkout and enrollment"; the server's courses
 * feature): the course list, each course's tutor standing, the enrollment status, choosing the
 * tutor, activating and ending a course. Schemas from `@shared/courses/…`.
 */
export const coursesApi = {
  /** Each open course: has its tutor left, and how many tutors teach its subject now (the dashboard's way out). */
  courseTutorsKey: (studentId: string) => ['/api/student', studentId, 'course-tutors'] as const,
  courseTutors: (studentId: string) => api.get(`/api/student/${enc(studentId)}/course-tutors`, z.array(courseTutorStatusSchema)),
  coursesKey: (studentId: string) => ['/api/student', studentId, 'courses'] as const,
  courses: (studentId: string) => api.get(`/api/student/${enc(studentId)}/courses`, z.array(studentCourseSchema)),
  enrollmentStatusKey: ['/api/student/enrollment-status'] as const,
  enrollmentStatus: jsonQuery('/api/student/enrollment-status', enrollmentStatusSchema),
  chooseTutor: (studentId: string, subjectId: string, tutorId: string) =>
    api.send('PATCH', `/api/student-courses/${enc(studentId)}/${enc(subjectId)}`, { tutorId, status: 'enrolled' }, studentCourseSchema),
  activateCourse: (studentId: string, subjectId: string) =>
    api.send('PATCH', `/api/student-courses/${enc(studentId)}/${enc(subjectId)}`, { status: 'active' }, studentCourseSchema),
  /** A course whose sessions are all used (spec part 2 §7). */
  endCourse: (courseId: string) =>
    api.send('PATCH', `/api/student-courses/${enc(courseId)}/end`, { status: 'inactive' }, studentCourseSchema, idempotencyKey()),
};
