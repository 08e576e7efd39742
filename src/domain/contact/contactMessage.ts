import { z } from 'zod';

/** The public contact form (spec part 1 §3 "Contact message", §5 validation). Shared with the UI. */
export const contactMessageSchema = z
  .object({
    name: z.string().trim().min(1, 'Full name is required').max(200, 'Full name is too long'),
    email: z.email('Please enter a valid email address').max(254, 'Email is too long'),
    phone: z.string().trim().max(40, 'Phone number is too long').optional().or(z.literal('')),
    subject: z.string().trim().min(1, 'Subject is required').max(200, 'Subject is too long'),
    message: z.string().trim().min(1, 'Message is required').max(5000, 'Message is too long'),
  })
  .strict();

export type ContactMessageInput = z.infer<typeof contactMessageSchema>;
