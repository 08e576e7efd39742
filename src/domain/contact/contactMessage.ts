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

/** Spec part 2 §5 "Support message: subject and message required". */
export const HELP_FIELDS_REQUIRED = 'Subject and message are required';

/**
 * The Help dialog of the student area (spec part 2 §7 `POST /api/contact/help` {subject, message,
 * name, studentId}). The sender is signed in: the reply goes to their account's address.
 */
export const helpMessageSchema = z
  .object({
    subject: z.string({ message: HELP_FIELDS_REQUIRED }).trim().min(1, HELP_FIELDS_REQUIRED).max(200, 'Subject is too long'),
    message: z.string({ message: HELP_FIELDS_REQUIRED }).trim().min(1, HELP_FIELDS_REQUIRED).max(5000, 'Message is too long'),
    /** The sender's name as the dialog shows it; the account's name when absent or empty. */
    name: z.string().trim().max(200, 'Name is too long').optional(),
    /** The student the message is about; the caller's own student when absent. */
    studentId: z.string().trim().max(100).optional().nullable(),
  })
  .strict();
export type HelpMessageInput = z.infer<typeof helpMessageSchema>;
