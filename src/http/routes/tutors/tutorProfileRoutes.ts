import type { FastifyError } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  dashboardStatsSchema,
  editTutorProfileBody,
  MAX_PICTURE_BYTES,
  PICTURE_TOO_LARGE,
  pictureUploadSchema,
  saveQualificationsBody,
  setPictureBody,
  tutorProfileSchema,
  tutorSubjectSchema,
} from '../../../domain/tutors/tutorApi.ts';
import type { System } from '../../../system.ts';
import { principalOf, SIGN_IN_COOKIE } from '../../kit/auth.ts';
import { idempotent } from '../../kit/commandRequest.ts';
import { readYourWrites } from '../../kit/readYourWrites.ts';

const tutorOnly = { roles: ['tutor'] } as const;
const tutorModels = ['tutors'] as const;
const messageSchema = z.object({ message: z.string() });
const tutorParams = z.object({ id: z.string().max(100) });
const tokenParams = z.object({ token: z.string().max(100) });

/**
 * The picture's bytes as the content-type parser hands them on: a private field, so the global
 * storable-text guard (which walks every enumerable key of a body) does not walk 5 MB of indices.
 */
class PictureBytes {
  readonly #bytes: Buffer;
  constructor(bytes: Buffer) {
    this.#bytes = bytes;
  }
  get bytes(): Buffer {
    return this.#bytes;
  }
}

/**
 * The tutor's own profile: bio and experience, picture, teaching subjects, dashboard figures; and
 * the public picture. A tutor's id is their profile id, equal to their user id: the signed-in
 * tutor's routes use the session's user id, `/api/tutors/{id}` paths the id.
 */
export const tutorProfileRoutes =
  ({ sql, tutors }: Pick<System, 'sql' | 'tutors'>): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/tutor/profile',
      {
        config: tutorOnly,
        schema: { tags: ['tutors'], summary: "The signed-in tutor's profile", response: { 200: tutorProfileSchema, 404: messageSchema } },
      },
      async (request) => tutors.profile(principalOf(request).userId),
    );

    app.put(
      '/api/tutors/:id',
      {
        config: { roles: ['tutor', 'admin'] },
        schema: {
          tags: ['tutors'],
          summary: "Edit a tutor's bio and years of experience (the tutor their own, an admin anyone's)",
          params: tutorParams,
          body: editTutorProfileBody,
          response: { 200: tutorProfileSchema, 403: messageSchema, 404: messageSchema },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const { id } = request.params;
          const { position } = await tutors.editProfile(id, request.body, ctx);
          await readYourWrites(sql, tutorModels, position);
          return { status: 200, body: await tutors.profile(id) };
        }),
    );

    app.post(
      '/api/tutor/profile-picture/upload',
      {
        config: tutorOnly,
        schema: {
          tags: ['tutors'],
          summary: `Open a one-time upload for a profile picture: PUT the bytes (PNG, JPEG, GIF or WebP, at most ${MAX_PICTURE_BYTES} bytes) to uploadURL with the session cookie within 15 minutes`,
          response: { 200: pictureUploadSchema, 404: messageSchema },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => ({
          status: 200,
          body: await tutors.openPictureUpload(principalOf(request).userId, ctx),
        })),
    );

    // The bytes themselves: any content type (only the magic numbers count), up to the picture limit.
    await app.register(async (plugin) => {
      const scope = plugin.withTypeProvider<ZodTypeProvider>();
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_PICTURE_BYTES }, (_request, body, done) => {
        done(null, new PictureBytes(body as Buffer));
      });
      scope.setErrorHandler((error: FastifyError, _request, reply) => {
        if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.status(413).send({ message: PICTURE_TOO_LARGE });
        throw error; // the app's handler answers everything else
      });
      scope.put(
        '/api/tutor/profile-picture/uploads/:token',
        {
          config: { ...tutorOnly, binaryBody: true },
          bodyLimit: MAX_PICTURE_BYTES,
          // No session cookie: refused before 5 MB are read (the full role check follows as for every route).
          preParsing: async (request, reply) => {
            if (!request.cookies[SIGN_IN_COOKIE]) return reply.status(401).send({ message: 'Not authenticated' });
          },
          schema: {
            tags: ['tutors'],
            summary: 'The picture bytes of an open upload of the signed-in tutor (413 over the limit, 400 when not an image)',
            params: tokenParams,
            response: {
              200: z.object({ ok: z.literal(true), contentType: z.string(), size: z.number() }),
              401: messageSchema,
              404: messageSchema,
            },
          },
        },
        async (request) => {
          const body = request.body as unknown;
          const bytes = body instanceof PictureBytes ? body.bytes : Buffer.alloc(0);
          const received = await tutors.receivePicture(principalOf(request).userId, request.params.token, bytes);
          return { ok: true as const, ...received };
        },
      );
    });

    app.put(
      '/api/tutor/profile-picture',
      {
        config: tutorOnly,
        schema: {
          tags: ['tutors'],
          summary: 'Make the picture uploaded to profileImageURL the tutor’s; answers the profile',
          body: setPictureBody,
          response: { 200: tutorProfileSchema, 404: messageSchema },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const { tutorId, position } = await tutors.usePicture(principalOf(request).userId, request.body.profileImageURL, ctx);
          await readYourWrites(sql, tutorModels, position);
          return { status: 200, body: await tutors.profile(tutorId) };
        }),
    );

    app.get(
      '/api/tutors/:id/picture',
      {
        config: { roles: 'public' },
        schema: {
          tags: ['tutors'],
          summary: "A tutor's profile picture (404 when none); `?v=` (the profile's URL) may be cached for good",
          params: tutorParams,
          querystring: z.object({ v: z.string().max(100).optional() }),
        },
      },
      async (request, reply) => {
        const picture = await tutors.picture(request.params.id);
        if (!picture) return reply.status(404).send({ message: 'No picture' });
        const { hash } = picture;
        const current = request.query.v !== undefined && hash.startsWith(request.query.v) && request.query.v.length >= 8;
        return reply
          .header('content-type', picture.contentType)
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('content-disposition', 'inline')
          .header('etag', `"${hash}"`)
          .header('cache-control', current ? 'public, max-age=31536000, immutable' : 'public, max-age=60, must-revalidate')
          .send(picture.bytes);
      },
    );

    app.post(
      '/api/tutor/subjects',
      {
        config: tutorOnly,
        schema: {
          tags: ['tutors'],
          summary: 'Save the subjects the tutor teaches (at least one); the subjects they imply are added; answers the saved set',
          body: saveQualificationsBody,
          response: { 200: z.array(tutorSubjectSchema), 404: messageSchema },
        },
      },
      async (request, reply) =>
        idempotent(sql, request, reply, async (ctx) => {
          const tutorId = principalOf(request).userId;
          const { position } = await tutors.setSubjects(tutorId, request.body.subjectQualifications, ctx);
          await readYourWrites(sql, tutorModels, position);
          return { status: 200, body: await tutors.subjects(tutorId) };
        }),
    );

    app.get(
      '/api/tutor/subjects',
      {
        config: tutorOnly,
        schema: {
          tags: ['tutors'],
          summary: 'The subjects the tutor teaches, implied ones included',
          response: { 200: z.array(tutorSubjectSchema) },
        },
      },
      async (request) => tutors.subjects(principalOf(request).userId),
    );

    app.get(
      '/api/tutor/dashboard-stats',
      {
        config: tutorOnly,
        schema: {
          tags: ['tutors'],
          summary:
            "The dashboard's figures: this week (Monday–Sunday, in the tutor's zone) and this billing period (1st–15th, 16th–end, in Toronto as payouts are)",
          response: { 200: dashboardStatsSchema, 404: messageSchema },
        },
      },
      async (request) => tutors.dashboardStats(principalOf(request).userId),
    );
  };
