/**
 * Tutors' profile pictures: what counts as an image (its first bytes, never its name or declared
 * type), where the bytes are kept, and the URL the browser loads. Pure, over plain bytes.
 */

export type PictureType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

const extensionOf: Record<PictureType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };

const startsWith = (bytes: Uint8Array, prefix: readonly number[], offset = 0) =>
  bytes.length >= offset + prefix.length && prefix.every((b, i) => bytes[offset + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The image type the bytes' magic numbers show (PNG, JPEG, GIF, WebP), or null for anything else. */
export function pictureTypeOf(bytes: Uint8Array): PictureType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return null;
}

/** Where a picture's bytes are kept: by tutor and content hash, so the same picture is one file. */
export const pictureKey = (tutorId: string, sha256: string, type: PictureType) =>
  `profile-pictures/${tutorId}/${sha256}.${extensionOf[type]}`;

/** Where a tutor's pending uploads are kept (tickets and bytes). */
export const uploadsPrefix = (tutorId: string) => `uploads/${tutorId}/`;

/** Every file an account may own (a tutor's id is their user id): what its deletion removes. */
export const filePrefixesOf = (ownerId: string) => [`profile-pictures/${ownerId}/`, uploadsPrefix(ownerId)];

const HASH_IN_KEY = /\/([0-9a-f]{12})[0-9a-f]*\.[a-z]+$/;

/**
 * The URL of a tutor's picture (`GET /api/tutors/{id}/picture`), versioned by the content hash so
 * a browser may cache it for long and still sees a new picture at once; null without a picture.
 */
export function pictureUrl(tutorId: string, imagePath: string | null): string | null {
  if (!imagePath) return null;
  const version = HASH_IN_KEY.exec(imagePath)?.[1];
  return `/api/tutors/${encodeURIComponent(tutorId)}/picture${version ? `?v=${version}` : ''}`;
}
