import {
  type AuditLogFilter,
  auditEventTypeSchema,
  auditLogPageSchema,
  RECENT_ACTIVITY_DEFAULT,
  recentActivitySchema,
} from '@shared/operations/auditLogApi.ts';
import { api, jsonQuery } from '../../app/api.ts';

/** The filters as the server reads them: empty fields are left out. */
export function auditLogParams(filter: AuditLogFilter, extra: Record<string, string> = {}): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filter, ...extra })) if (value) params.set(key, value);
  return params;
}

/** The Audit Log tab and the Overview's Recent Activity (issue 12 §5, §1). */
export const auditLogApi = {
  /** Every audit log query: the tab's pages and the Overview's feed. */
  allKey: ['/api/admin/audit-log'] as const,
  pagesKey: (filter: AuditLogFilter) => ['/api/admin/audit-log', 'pages', filter] as const,
  page: (filter: AuditLogFilter, cursor: string | null, signal?: AbortSignal) =>
    api.get(`/api/admin/audit-log?${auditLogParams(filter, cursor ? { cursor } : {})}`, auditLogPageSchema, signal ? { signal } : {}),
  /** The CSV of the current filters (the browser downloads it with the session cookie). */
  csvUrl: (filter: AuditLogFilter) => {
    const params = auditLogParams(filter).toString();
    return `/api/admin/audit-log.csv${params ? `?${params}` : ''}`;
  },

  /** The type picker's choices: every recorded type with its words. */
  eventTypesKey: ['/api/admin/audit-log', 'event-types'] as const,
  eventTypes: jsonQuery('/api/admin/audit-log/event-types', auditEventTypeSchema.array()),

  recentKey: ['/api/admin/audit-log', 'recent'] as const,
  recent: jsonQuery(`/api/admin/recent-activity?limit=${RECENT_ACTIVITY_DEFAULT}`, recentActivitySchema.array()),
};
