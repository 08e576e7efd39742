import {
  type AdminCancelSessionBody,
  type AdminSessionListQuery,
  adminCancelSessionAnswerSchema,
  adminSessionPageSchema,
} from '@shared/sessions/adminSessionApi.ts';
import { api, jsonQuery } from '../../app/api.ts';
import { listQueryParams } from '../accounts/consoleApi.ts';

/** The Sessions tab's calls (issue 12 §2). */
export const sessionsConsoleApi = {
  allKey: ['/api/admin/sessions'] as const,
  listKey: (q: AdminSessionListQuery) => ['/api/admin/sessions', 'list', q] as const,
  list: (q: AdminSessionListQuery) => jsonQuery(`/api/admin/sessions?${listQueryParams(q)}`, adminSessionPageSchema),
  cancel: (sessionId: string, body: AdminCancelSessionBody) =>
    api.send('POST', `/api/admin/sessions/${encodeURIComponent(sessionId)}/cancel`, body, adminCancelSessionAnswerSchema),
};
