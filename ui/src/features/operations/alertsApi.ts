import { type AlertListQuery, alertPageSchema, alertSchema } from '@shared/operations/alertApi.ts';
import { api, jsonQuery } from '../../app/api.ts';

/** The Alerts tab's calls (issue 12 §4) and the console's Alerts badge. */
export const alertsApi = {
  /** Every alert query: the badge's and every page of the tab. */
  allKey: ['/api/admin/alerts'] as const,
  /** The Alerts badge: its length. Under the alerts key, so resolving one refreshes it. */
  unresolvedKey: ['/api/admin/alerts', 'unresolved'] as const,
  unresolved: jsonQuery('/api/admin/alerts/unresolved', alertSchema.array()),
  listKey: (query: AlertListQuery) => ['/api/admin/alerts', 'list', query] as const,
  list: (query: AlertListQuery) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
    return jsonQuery(`/api/admin/alerts?${params}`, alertPageSchema);
  },
  resolve: (alertId: string, note: string) =>
    api.send('POST', `/api/admin/alerts/${encodeURIComponent(alertId)}/resolve`, { note }, alertSchema),
};
