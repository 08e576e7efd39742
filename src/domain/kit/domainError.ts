/**
 * A rule a command broke, by kind; its message is shown to the user as is. Only the HTTP layer
 * (`src/http/kit/errors.ts`) turns a kind into a status code.
 */
export type DomainErrorKind = 'invalid' | 'unauthenticated' | 'forbidden' | 'not_found' | 'conflict' | 'unprocessable' | 'rate_limited';

export class DomainError extends Error {
  constructor(
    message: string,
    readonly kind: DomainErrorKind = 'conflict',
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** An `invalid` input about one field: the HTTP layer answers it as a 400 that names the field. */
export class InvalidFieldError extends DomainError {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message, 'invalid');
    this.name = 'InvalidFieldError';
  }
}

export const invalid = (message: string) => new DomainError(message, 'invalid');
export const unauthenticated = (message: string) => new DomainError(message, 'unauthenticated');
export const forbidden = (message: string) => new DomainError(message, 'forbidden');
export const notFound = (message: string) => new DomainError(message, 'not_found');
export const conflict = (message: string) => new DomainError(message, 'conflict');
export const rateLimited = (message: string) => new DomainError(message, 'rate_limited');
