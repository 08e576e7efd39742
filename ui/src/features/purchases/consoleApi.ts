import {
  type AdminPurchaseListQuery,
  adminPurchasePageSchema,
  refundAnswerSchema,
  refundQuoteSchema,
} from '@shared/purchases/adminPurchaseApi.ts';
import { api, jsonQuery } from '../../app/api.ts';

/** The Purchases tab's calls (issue 12 §2): the list for admins and finance, the refund for admins. */
export const purchasesConsoleApi = {
  allKey: ['/api/admin/purchases'] as const,
  listKey: (query: AdminPurchaseListQuery) => ['/api/admin/purchases', 'list', query] as const,
  list: (query: AdminPurchaseListQuery) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
    return jsonQuery(`/api/admin/purchases?${params}`, adminPurchasePageSchema);
  },
  quoteKey: (purchaseId: string) => ['/api/admin/purchases', 'refund-quote', purchaseId] as const,
  quote: (purchaseId: string) => jsonQuery(`/api/admin/purchases/${encodeURIComponent(purchaseId)}/refund`, refundQuoteSchema),
  /** One key per dialog opening: a retried click never refunds twice. */
  refund: (purchaseId: string, reason: string, idempotencyKey: string) =>
    api.send('POST', `/api/admin/purchases/${encodeURIComponent(purchaseId)}/refund`, { reason }, refundAnswerSchema, {
      headers: { 'Idempotency-Key': idempotencyKey },
    }),
};
