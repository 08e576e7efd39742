import { helpSentSchema } from '@shared/contact/contactApi.ts';
import type { HelpMessageInput } from '@shared/contact/contactMessage.ts';
import { studentDashboardSchema, studentInfoSchema } from '@shared/students/studentApi.ts';
import { api } from '../../app/api.ts';

const enc = encodeURIComponent;

/** A fresh key per attempt: a retried request is answered once (the server's Idempotency-Key). */
const idempotencyKey = () => ({ headers: { 'Idempotency-Key': crypto.randomUUID() } });

/** The student area's reads and the Help dialog (spec part 2 §7); answers read through `@shared/students/studentApi.ts`. */
export const dashboardsApi = {
  /** GET /api/student/dashboard; a parent names the student. */
  dashboardKey: (studentId?: string) => ['/api/student/dashboard', studentId ?? 'own'] as const,
  dashboard: (studentId?: string) =>
    api.get(studentId ? `/api/student/dashboard?studentId=${enc(studentId)}` : '/api/student/dashboard', studentDashboardSchema),
  infoKey: (studentId: string) => ['/api/student/info', studentId] as const,
  info: (studentId: string) => api.get(`/api/student/info/${enc(studentId)}`, studentInfoSchema),
  /** POST /api/contact/help {subject, message, name, studentId}. */
  sendHelp: (body: HelpMessageInput) => api.send('POST', '/api/contact/help', body, helpSentSchema, idempotencyKey()),
};
