import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminUserListQuerySchema,
  adminUserPageSchema,
  adminUserSchema,
  userStatusBodySchema,
} from '../../../domain/accounts/adminUserApi.ts';
import { ACCOUNT_NOT_FOUND } from '../../../domain/accounts/userDecider.ts';
import { DomainError } from '../../../domain/kit/decider.ts';
import type { System } from '../../../system.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { readYourWrites } from '../../kit/readYourWrites.ts';

/** The Users tab is for admins: finance staff see purchases and payouts only (issue 12). */
const adminOnly = { roles: ['admin'] } as const;
const messageSchema = z.object({ message: z.string() });
const badRequestSchema = z.object({
  message: z.string(),
  field: z.string().optional(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});

/**
 * The console's Users tab (issue 12 §2): the accounts, searched, filtered, sorted and paged by the
 * server; deactivating an account (sign-in refused, its cookies stop working at once) and
 * reactivating it, each with the admin's reason recorded on the user's stream.
 */
export const adminUserRoutes =
  ({ sql, accounts }: Pick<System, 'sql' | 'accounts'>): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/users',
      {
        config: adminOnly,
        schema: {
          tags: ['admin'],
          summary: 'One page of accounts: search on name, username and e-mail; filters by role and status; sorted by the server',
          querystring: adminUserListQuerySchema,
          response: { 200: adminUserPageSchema, 400: badRequestSchema },
        },
      },
      (request) => accounts.adminUsers(request.query),
    );

    for (const action of ['deactivate', 'reactivate'] as const) {
      app.post(
        `/api/admin/users/:id/${action}`,
        {
          config: adminOnly,
          schema: {
            tags: ['admin'],
            summary:
              action === 'deactivate'
                ? 'Deactivate an account with a reason: its sessions end and sign-in is refused (409 when already deactivated; not your own)'
                : 'Reactivate a deactivated account with a reason (409 when it is active)',
            params: z.object({ id: z.string().min(1).max(100) }),
            body: userStatusBodySchema,
            response: { 200: adminUserSchema, 400: badRequestSchema, 403: messageSchema, 404: messageSchema, 409: messageSchema },
          },
        },
        async (request, reply) =>
          idempotent(sql, request, reply, async (ctx) => {
            const input = { userId: request.params.id, reason: request.body.reason };
            const { position } = await accounts.setStatus(action, input, ctx);
            await readYourWrites(sql, ['users'], position);
            const shown = await accounts.adminUser(input.userId);
            if (!shown) throw new DomainError(ACCOUNT_NOT_FOUND, 'not_found');
            return { status: 200, body: shown };
          }),
      );
    }
  };
