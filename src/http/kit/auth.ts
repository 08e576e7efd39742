import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SIGN_IN_DAYS, type SignInStore } from '../../adapters/signIns/signInStore.ts';

/** The cookie keeps its first name: renaming it would sign every browser out. */
export const SIGN_IN_COOKIE = 'tm_session';

export interface Principal {
  userId: string;
  role: string;
  /** Set for a student's view-only login. */
  studentId: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export const NOT_AUTHENTICATED = 'Not authenticated';
export const FORBIDDEN = 'You do not have permission to do this';

/**
 * Every request is resolved to its principal from the sign-in cookie, then checked against the
 * roles its route declares. The check runs on the server for every route; UI guards only mirror it.
 */
export function installAuth(app: FastifyInstance, signIns: SignInStore): void {
  app.decorateRequest('principal', null);
  // Before validation: an anonymous or unauthorised caller learns nothing from validation errors.
  app.addHook('preValidation', async (request, reply) => {
    const token = request.cookies[SIGN_IN_COOKIE];
    if (token) {
      const signIn = await signIns.find(token);
      request.principal = signIn ? { userId: signIn.userId, role: signIn.role, studentId: signIn.studentId } : null;
      if (!signIn) clearSignInCookie(reply, request);
    }
    const roles = request.routeOptions.config?.roles;
    if (!roles || roles === 'public') return;
    if (!request.principal) return reply.status(401).send({ message: NOT_AUTHENTICATED });
    if (!roles.includes(request.principal.role)) return reply.status(403).send({ message: FORBIDDEN });
  });
}

const secure = (request: FastifyRequest) => request.protocol === 'https' || process.env.NODE_ENV === 'production';

export function setSignInCookie(reply: FastifyReply, request: FastifyRequest, token: string): void {
  reply.setCookie(SIGN_IN_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: secure(request),
    maxAge: SIGN_IN_DAYS * 86_400,
  });
}

export function clearSignInCookie(reply: FastifyReply, request: FastifyRequest): void {
  reply.clearCookie(SIGN_IN_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: secure(request) });
}

/** The principal of a route that declared roles (the guard already refused anonymous callers). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('Route without roles asked for a principal');
  return request.principal;
}
