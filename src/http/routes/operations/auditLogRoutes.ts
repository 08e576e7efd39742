import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { eventCatalog } from '../../../domain/eventCatalog.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import {
  AUDIT_CURSOR_INVALID,
  AUDIT_LOG_CSV_MAX_ROWS,
  type AuditLogEntry,
  auditEventTypeSchema,
  auditLogFilterSchema,
  auditLogPageSchema,
  auditLogQuerySchema,
  humanAction,
  recentActivityQuerySchema,
  recentActivitySchema,
} from '../../../domain/operations/auditLogApi.ts';
import {
  auditLogEntry,
  decodeAuditCursor,
  eachAuditLogRow,
  listAuditLog,
  recentActivity,
  withEntityNames,
} from '../../../projections/operations/auditLog/queries.ts';
import type { System } from '../../../system.ts';
import { auditCsvHeaderLine, auditCsvLines } from './auditLogCsv.ts';

/** The audit log is for admins: finance staff see purchases and payouts only (issue 12). */
const adminOnly = { roles: ['admin'] } as const;
/** The CSV resolves entity names this many rows at a time. */
const CSV_NAME_BATCH = 500;

/**
 * The console's audit log (issue 12 §5): a keyset-paged list, its CSV, and the Overview's feed.
 * Pages are keyed by log position, not by offset: rows recorded while someone pages arrive above
 * the first page and never shift the pages after it.
 */
export const auditLogRoutes =
  ({ sql }: Pick<System, 'sql'>): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/audit-log',
      {
        config: adminOnly,
        schema: {
          tags: ['audit log'],
          summary: 'One page of the audit log, newest first, filtered by entity, actor, type and time; nextCursor pages on',
          querystring: auditLogQuerySchema,
          response: { 200: auditLogPageSchema },
        },
      },
      async (request) => {
        const { cursor, limit, ...filter } = request.query;
        const before = cursor ? decodeAuditCursor(cursor) : null;
        if (cursor && !before) throw new DomainError(AUDIT_CURSOR_INVALID, 'invalid');
        const page = await listAuditLog(sql, filter, { before, limit });
        return { rows: await withEntityNames(sql, page.rows.map(auditLogEntry)), nextCursor: page.nextCursor };
      },
    );

    app.get(
      '/api/admin/audit-log.csv',
      {
        config: adminOnly,
        schema: {
          tags: ['audit log'],
          summary: `The audit log's rows under the same filters as CSV, newest first, at most ${AUDIT_LOG_CSV_MAX_ROWS.toLocaleString('en-US')}`,
          querystring: auditLogFilterSchema,
        },
      },
      async (request, reply) => {
        const rows = eachAuditLogRow(sql, request.query, AUDIT_LOG_CSV_MAX_ROWS);
        // Names are resolved a batch at a time, as the rows stream out: one lookup per 500 rows, not per row.
        async function* lines() {
          yield auditCsvHeaderLine();
          let batch: AuditLogEntry[] = [];
          const named = async () => auditCsvLines(await withEntityNames(sql, batch));
          for await (const row of rows) {
            batch.push(auditLogEntry(row));
            if (batch.length < CSV_NAME_BATCH) continue;
            yield await named();
            batch = [];
          }
          if (batch.length > 0) yield await named();
        }
        const day = app.clock.now().toISOString().slice(0, 10);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="audit-log-${day}.csv"`)
          .header('cache-control', 'no-store')
          .header('x-row-limit', String(AUDIT_LOG_CSV_MAX_ROWS))
          .send(Readable.from(lines()));
      },
    );

    // Every type the catalogue knows, in words: the audit log's type picker.
    const eventTypes = Object.keys(eventCatalog)
      .map((type) => ({ type, label: humanAction(type) }))
      .sort((a, b) => a.label.localeCompare(b.label, 'en'));
    app.get(
      '/api/admin/audit-log/event-types',
      {
        config: adminOnly,
        schema: {
          tags: ['audit log'],
          summary: 'The event types the audit log records, each with its words ("Session booked"), sorted by them',
          response: { 200: z.array(auditEventTypeSchema) },
        },
      },
      () => eventTypes,
    );

    app.get(
      '/api/admin/recent-activity',
      {
        config: adminOnly,
        schema: {
          tags: ['audit log'],
          summary: "The Overview's Recent Activity: the latest audit log rows as who did what to which entity",
          querystring: recentActivityQuerySchema,
          response: { 200: z.array(recentActivitySchema) },
        },
      },
      (request) => recentActivity(sql, request.query.limit),
    );
  };
