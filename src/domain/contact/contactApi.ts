import { z } from 'zod';

/** The answer of POST /api/contact (src/http/routes/contact/contactRoutes.ts, `response: 201`). */
export const contactCreatedSchema = z.object({ ok: z.literal(true), id: z.string() });

/** The answer of POST /api/contact/help. */
export const helpSentSchema = z.object({ ok: z.literal(true), id: z.string() });
