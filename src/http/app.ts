import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Clock } from '../adapters/clock/clock.ts';
import { isPagePath } from '../domain/site/pagePaths.ts';
import { listStudentSessions } from '../projections/sessions/queries.ts';
import type { System } from '../system.ts';
import { installAuth } from './kit/auth.ts';
import { installErrorHandling } from './kit/errors.ts';
import { installRateLimits } from './kit/rateLimits.ts';
import { installOriginCheck, installSecurityHeaders } from './kit/security.ts';
import { installStorableTextGuard } from './kit/storableText.ts';
import { accountRoutes } from './routes/accounts/accountRoutes.ts';
import { adminUserRoutes } from './routes/accounts/adminUserRoutes.ts';
import { googleAuthRoutes } from './routes/accounts/googleAuthRoutes.ts';
import { contactRoutes } from './routes/contact/contactRoutes.ts';
import { courseRoutes } from './routes/courses/courseRoutes.ts';
import { healthRoutes } from './routes/health/healthRoutes.ts';
import { noticeRoutes } from './routes/notices/noticeRoutes.ts';
import { alertRoutes } from './routes/operations/alertRoutes.ts';
import { auditLogRoutes } from './routes/operations/auditLogRoutes.ts';
import { entityHistoryRoutes } from './routes/operations/entityHistoryRoutes.ts';
import { jobRoutes } from './routes/operations/jobRoutes.ts';
import { consoleMailboxRoutes } from './routes/operations/mailboxRoutes.ts';
import { projectionRoutes } from './routes/operations/projectionRoutes.ts';
import { packageRoutes } from './routes/packages/packageRoutes.ts';
import { payoutRoutes } from './routes/payouts/payoutRoutes.ts';
import { tutorRateRoutes } from './routes/payouts/tutorRateRoutes.ts';
import { promoCodeRoutes } from './routes/promoCodes/promoCodeRoutes.ts';
import { adminPurchaseRoutes } from './routes/purchases/adminPurchaseRoutes.ts';
import { purchaseRoutes } from './routes/purchases/purchaseRoutes.ts';
import { repurchaseRoutes } from './routes/purchases/repurchaseRoutes.ts';
import { reviewRoutes } from './routes/reviews/reviewRoutes.ts';
import { adminSessionRoutes } from './routes/sessions/adminSessionRoutes.ts';
import { calendarFeedRoutes } from './routes/sessions/calendarFeedRoutes.ts';
import { sessionCalendarRoutes } from './routes/sessions/sessionCalendarRoutes.ts';
import { sessionRoutes } from './routes/sessions/sessionRoutes.ts';
import { studentRoutes } from './routes/students/studentRoutes.ts';
import { subjectRoutes } from './routes/subjects/subjectRoutes.ts';
import { googleCalendarPushRoutes } from './routes/tutors/googleCalendarPushRoutes.ts';
import { subjectsWithTutorsRoutes } from './routes/tutors/subjectsWithTutorsRoutes.ts';
import { tutorCalendarEventsRoutes } from './routes/tutors/tutorCalendarEventsRoutes.ts';
import { tutorCalendarRoutes } from './routes/tutors/tutorCalendarRoutes.ts';
import { tutorDirectoryRoutes } from './routes/tutors/tutorDirectoryRoutes.ts';
import { tutorProfileRoutes } from './routes/tutors/tutorProfileRoutes.ts';
import { tutorRoutes } from './routes/tutors/tutorRoutes.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; every API route must say. */
    roles?: 'public' | readonly string[];
    /** The body is raw bytes (an upload), not text: the storable-text guard has nothing to check. */
    binaryBody?: boolean;
  }
  interface FastifyInstance {
    /** Every API route with the roles it allows: what the role-walk test checks. */
    declaredRoutes: DeclaredRoute[];
    /** The system's clock: the instant a request's command decides at (`contextFrom`). */
    clock: Clock;
  }
}

export interface DeclaredRoute {
  method: string;
  url: string;
  roles: 'public' | readonly string[];
  binaryBody: boolean;
}

/**
 * TRUST_PROXY as Fastify takes it. A hop count becomes proxy-addr's "the nearest N hops"
 * function: Fastify itself reads a bare number as "trust nobody", so the setting would be ignored.
 */
function trustProxyOption(setting: boolean | number | string[]): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') return setting;
  return (_address, hop) => hop < setting;
}

export async function buildApp(system: System, options: { logger?: boolean } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: system.config.LOG_LEVEL,
            // method, route and status only: no IPs, query strings or bodies (personal data).
            serializers: {
              req: (req) => ({ method: req.method, url: req.url.split('?')[0] }),
              res: (res) => ({ statusCode: res.statusCode }),
            },
          },
    bodyLimit: 256 * 1024,
    // The client's address and protocol come from X-Forwarded-* only when sent by a trusted proxy.
    trustProxy: trustProxyOption(system.config.TRUST_PROXY),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);

  await installSecurityHeaders(app, system.config);
  installOriginCheck(app, system.config);
  await app.register(fastifyCookie, { secret: system.cookieSecret });
  await installRateLimits(app, system.accounts.rateLimiter);
  // In production the published API is what the public may call (issue 23 §6): a route for
  // signed-in roles (the console's above all) is left out of /api/docs and its JSON.
  const publicDocsOnly = system.config.NODE_ENV === 'production';
  await app.register(fastifySwagger, {
    openapi: { info: { title: 'Topmark API', version: '0.1.0' } },
    transform: (document) =>
      publicDocsOnly && document.route.config?.roles !== 'public'
        ? jsonSchemaTransform({ ...document, schema: { ...document.schema, hide: true } })
        : jsonSchemaTransform(document),
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', uiConfig: { validatorUrl: null } });

  const declared: DeclaredRoute[] = [];
  app.decorate('declaredRoutes', declared);
  app.decorate('clock', system.clock);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    const roles = route.config?.roles;
    if (!roles) throw new Error(`Route ${route.method} ${route.url} does not declare its roles`);
    for (const method of [route.method].flat())
      if (method !== 'HEAD') declared.push({ method, url: route.url, roles, binaryBody: route.config?.binaryBody === true });
  });

  installAuth(app, system.signIns);
  installStorableTextGuard(app);
  await app.register(healthRoutes(system));
  await app.register(accountRoutes(system));
  await app.register(googleAuthRoutes(system));
  await app.register(contactRoutes(system));
  await app.register(subjectRoutes(system));
  await app.register(tutorRoutes(system));
  await app.register(tutorProfileRoutes(system));
  await app.register(tutorCalendarRoutes(system));
  await app.register(tutorCalendarEventsRoutes(system));
  await app.register(googleCalendarPushRoutes(system));
  await app.register(tutorDirectoryRoutes(system));
  await app.register(subjectsWithTutorsRoutes(system));
  await app.register(packageRoutes(system));
  await app.register(promoCodeRoutes(system));
  await app.register(alertRoutes(system));
  await app.register(entityHistoryRoutes(system));
  await app.register(projectionRoutes(system));
  await app.register(jobRoutes(system));
  await app.register(consoleMailboxRoutes(system));
  await app.register(auditLogRoutes(system));
  await app.register(purchaseRoutes(system));
  await app.register(repurchaseRoutes(system));
  await app.register(adminPurchaseRoutes(system));
  await app.register(courseRoutes(system));
  await app.register(sessionRoutes(system));
  await app.register(reviewRoutes(system));
  await app.register(sessionCalendarRoutes(system));
  await app.register(calendarFeedRoutes(system));
  await app.register(noticeRoutes(system));
  await app.register(payoutRoutes(system));
  await app.register(tutorRateRoutes(system));
  await app.register(adminUserRoutes(system));
  await app.register(adminSessionRoutes(system));
  // The student area reads sessions through its StudentSessions port: the sessions read model's query.
  await app.register(studentRoutes({ sql: system.sql, studentSessions: (studentId) => listStudentSessions(system.sql, studentId) }));

  const uiDir = path.resolve(system.config.UI_DIR);
  const hasUi = existsSync(path.join(uiDir, 'index.html'));
  if (hasUi)
    await app.register(fastifyStatic, {
      root: uiDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each file (ui/vite.config.ts): sent as the browser accepts.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, filePath) => reply.header('cache-control', cacheControlOf(filePath)),
    });
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api')) return reply.status(404).send({ message: 'Not found' });
    if (request.method !== 'GET' && request.method !== 'HEAD') return reply.status(404).send({ message: 'Not found' });
    if (!hasUi) return reply.status(503).type('text/plain').send('The UI is not built: run npm run build:ui');
    // SPA fallback: the client router shows the page, or its own "404 Page Not Found" — then
    // with the status a missing page has, for crawlers, link checkers and monitors.
    const pathname = request.url.split('?')[0] ?? '/';
    return reply.status(isPagePath(pathname) ? 200 : 404).sendFile('index.html');
  });
  return app;
}

/**
 * Build assets (every name under assets/ carries its content's hash) never change under their name, so browsers keep them a year without asking;
 * the page itself is revalidated on every visit so a deployment reaches everyone at once.
 */
export function cacheControlOf(filePath: string): string {
  if (/[\\/]assets[\\/]/.test(filePath)) return 'public, max-age=31536000, immutable';
  if (/index\.html(\.br|\.gz)?$/.test(filePath)) return 'no-cache';
  return 'public, max-age=3600';
}
