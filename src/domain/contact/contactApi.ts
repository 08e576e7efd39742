import { z } from 'zod';

/** The answer of POST /api/contact (src/http/routes/contact/contactRoutes.ts, `response: 201`). */
export const contactCreatedSchema = z.object({ ok: z.literal(true), id: z.string() });
