import { DomainError, InvalidFieldError } from './domainError.ts';

/**
 * What a name may not hold: the characters that make text read differently from what it is.
 * Names are shown to other people (a tutor's name to a family, a subject in the catalogue, a
 * person in the console, a code at checkout), so one that hides or reorders its letters is a way
 * to impersonate or mislead, and one that cannot be seen cannot be searched for or typed back.
 *
 * - bidirectional controls: embeddings and overrides U+202A–U+202E, isolates U+2066–U+2069, the
 *   marks U+200E, U+200F and U+061C (an override shows "evil.exe" as "exe.live");
 * - zero-width and invisible characters: U+200B–U+200D, U+2060–U+2064, U+FEFF, U+180E;
 * - line and paragraph separators U+2028, U+2029, and C0/C1 controls (tabs, newlines, DEL…);
 * - non-characters (U+FDD0–U+FDEF and the last two code points of every plane), which Unicode
 *   reserves for a program's internal use and no one types.
 *
 * Longer free text (a description, a note, a message) may hold them; only names are held to this.
 * Text PostgreSQL cannot store at all is refused everywhere (src/domain/kit/storableText.ts).
 */
const HIDDEN = /[\p{Cc}\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|\p{Noncharacter_Code_Point}/u;

export const isCleanName = (text: string) => !HIDDEN.test(text);

/** `{label} contains invisible or direction-changing characters`: said for a name that holds one. */
export const hiddenCharacters = (label: string) => `${label} contains invisible or direction-changing characters`;

/** The refinement a name field's schema takes: `.refine(...cleanName('First name'))`. */
export const cleanName = (label: string) => [isCleanName, { error: hiddenCharacters(label) }] as const;

/** Throws an invalid error (naming `field` when given) for a name holding a hidden character. */
export function requireCleanName(text: string, label: string, field?: string): void {
  if (isCleanName(text)) return;
  throw field === undefined ? new DomainError(hiddenCharacters(label), 'invalid') : new InvalidFieldError(field, hiddenCharacters(label));
}
