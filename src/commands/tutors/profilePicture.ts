import { createHash, randomBytes } from 'node:crypto';
import type { FileStorage } from '../../adapters/files/fileStorage.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import { type PictureType, pictureKey, pictureTypeOf, uploadsPrefix } from '../../domain/tutors/picture.ts';
import { MAX_PICTURE_BYTES, PICTURE_NOT_AN_IMAGE, PICTURE_TOO_LARGE } from '../../domain/tutors/tutorApi.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import type { TutorHandlers } from './tutorHandlers.ts';

/**
 * A profile picture arrives in three calls (spec part 2 §7): an upload is opened (a one-time
 * token bound to the tutor, valid `UPLOAD_TTL_MINUTES`), the bytes are PUT to it, then the tutor
 * sets the uploaded picture. Pending uploads live in the file storage under
 * `uploads/<tutorId>/<token>.json` (the ticket) and `.bin` (the bytes); a tutor's expired or used
 * tickets are removed when they open the next upload, and the bytes as soon as they are used.
 */
export const UPLOAD_TTL_MINUTES = 15;
export const UPLOAD_NOT_FOUND = 'This upload link is unknown or has expired. Please upload the picture again.';
export const UPLOAD_ALREADY_USED = 'This upload link was already used. Please upload the picture again.';
export const UPLOAD_EMPTY = 'No picture was uploaded to this link yet';

interface Ticket {
  tutorId: string;
  expiresAt: string;
  state: 'open' | 'uploaded' | 'used';
  contentType?: PictureType;
  sha256?: string;
  /** Once used: where the picture was kept. */
  imagePath?: string;
}

const TOKEN = /^[0-9a-f]{48}$/;
const ticketKey = (tutorId: string, token: string) => `${uploadsPrefix(tutorId)}${token}.json`;
const bytesKey = (tutorId: string, token: string) => `${uploadsPrefix(tutorId)}${token}.bin`;

/** The path an upload's bytes are PUT to. */
export const uploadPath = (token: string) => `/api/tutor/profile-picture/uploads/${token}`;

/** The token of an upload URL as the client sends it back (the path, or an absolute URL with it), or null. */
export function tokenOfUploadUrl(url: string): string | null {
  let pathname: string;
  try {
    pathname = new URL(url, 'http://upload.invalid').pathname;
  } catch {
    return null;
  }
  const match = /^\/api\/tutor\/profile-picture\/uploads\/([^/]+)$/.exec(pathname);
  return match?.[1] && TOKEN.test(match[1]) ? match[1] : null;
}

/** A picture over the limit: answered 413 by the HTTP error handler (its status and message). */
export class PictureTooLargeError extends Error {
  readonly statusCode = 413;
  constructor() {
    super(PICTURE_TOO_LARGE);
    this.name = 'PictureTooLargeError';
  }
}

async function readTicket(files: FileStorage, tutorId: string, token: string): Promise<Ticket | null> {
  if (!TOKEN.test(token)) return null;
  let raw: Buffer | null;
  try {
    raw = await files.get(ticketKey(tutorId, token));
  } catch {
    return null; // an id no key can hold has no uploads
  }
  if (!raw) return null;
  const ticket = JSON.parse(raw.toString('utf8')) as Ticket;
  return ticket.tutorId === tutorId ? ticket : null;
}

const writeTicket = (files: FileStorage, token: string, ticket: Ticket) =>
  files.put(ticketKey(ticket.tutorId, token), Buffer.from(JSON.stringify(ticket)));

/** Opens an upload for the tutor; the tutor's expired and used uploads go first. */
export async function openPictureUpload(files: FileStorage, tutorId: string, now: Date): Promise<{ token: string; expiresAt: string }> {
  for (const key of await files.list(uploadsPrefix(tutorId))) {
    const token = /([0-9a-f]{48})\.(json|bin)$/.exec(key)?.[1];
    if (!token) continue;
    const ticket = await readTicket(files, tutorId, token);
    if (!ticket || ticket.state === 'used' || Date.parse(ticket.expiresAt) <= now.getTime()) await files.delete(key);
  }
  const token = randomBytes(24).toString('hex');
  const expiresAt = new Date(now.getTime() + UPLOAD_TTL_MINUTES * 60_000).toISOString();
  await writeTicket(files, token, { tutorId, expiresAt, state: 'open' });
  return { token, expiresAt };
}

/**
 * Receives the bytes of an open upload of this tutor (another tutor's token is unknown to them):
 * an image by its magic numbers, whatever its name or declared type, of at most MAX_PICTURE_BYTES.
 */
export async function receivePictureUpload(files: FileStorage, tutorId: string, token: string, bytes: Uint8Array, now: Date) {
  const ticket = await readTicket(files, tutorId, token);
  if (!ticket || Date.parse(ticket.expiresAt) <= now.getTime()) throw new DomainError(UPLOAD_NOT_FOUND, 'not_found');
  if (ticket.state !== 'open') throw new DomainError(UPLOAD_ALREADY_USED, 'conflict');
  if (bytes.length > MAX_PICTURE_BYTES) throw new PictureTooLargeError();
  const contentType = pictureTypeOf(bytes);
  if (!contentType) throw new DomainError(PICTURE_NOT_AN_IMAGE, 'invalid');
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  await files.put(bytesKey(tutorId, token), bytes);
  await writeTicket(files, token, { ...ticket, state: 'uploaded', contentType, sha256 });
  return { contentType, size: bytes.length };
}

/**
 * Makes an uploaded picture the tutor's: the bytes are kept under their hash, then
 * ChangeTutorPicture records the path. Setting the same upload again changes nothing.
 */
export async function useUploadedPicture(
  handlers: Pick<TutorHandlers, 'tutors'>,
  files: FileStorage,
  tutorId: string,
  uploadUrl: string,
  ctx: CommandContext,
) {
  const token = tokenOfUploadUrl(uploadUrl);
  const ticket = token ? await readTicket(files, tutorId, token) : null;
  if (!token || !ticket) throw new DomainError(UPLOAD_NOT_FOUND, 'not_found');
  if (ticket.state === 'open') throw new DomainError(UPLOAD_EMPTY, 'invalid');
  let imagePath = ticket.imagePath;
  const contentType = ticket.contentType as PictureType;
  if (ticket.state === 'uploaded') {
    const bytes = await files.get(bytesKey(tutorId, token));
    if (!bytes) throw new DomainError(UPLOAD_NOT_FOUND, 'not_found');
    imagePath = pictureKey(tutorId, ticket.sha256 as string, contentType);
    await files.put(imagePath, bytes);
  }
  const result = await handlers.tutors.handle(
    tutorId,
    { type: 'ChangeTutorPicture', data: { tutorId, imagePath: imagePath as string, contentType } },
    ctx,
  );
  if (ticket.state === 'uploaded') {
    await writeTicket(files, token, { ...ticket, state: 'used', imagePath: imagePath as string });
    await files.delete(bytesKey(tutorId, token));
  }
  return result;
}
