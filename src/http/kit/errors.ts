import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { WrongExpectedRevisionError } from '../../adapters/eventstore/eventStore.ts';
import { DomainError, type DomainErrorKind } from '../../domain/kit/decider.ts';
import { ReadModelLagError } from './readYourWrites.ts';

/** The only place a domain error's kind becomes an HTTP status. */
export const statusOfKind: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
  rate_limited: 429,
};

export interface FieldError {
  field: string;
  message: string;
}

const FASTIFY_CLIENT_ERRORS: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type: send JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is not valid JSON',
  FST_ERR_CTP_INVALID_JSON_BODY: 'Request body is not valid JSON',
};

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

function badInput(errors: FieldError[]): Answer {
  const first = errors[0];
  // The message is the rule's own words (the UI shows it as is); `field` names the input.
  return { status: 400, body: { message: first?.message ?? 'Invalid request', field: first?.field, errors } };
}

/** The field an `invalid` domain error names (`InvalidFieldError`, the weekly-hours rules), if it names one. */
function fieldOf(error: DomainError): string | null {
  if (error.kind !== 'invalid' || !('field' in error)) return null;
  return typeof error.field === 'string' && error.field !== '' ? error.field : null;
}

/** The answer to an error we know, or null for a server error. */
function answerTo(error: FastifyError): Answer | null {
  if (hasZodFastifySchemaValidationErrors(error)) {
    return badInput(
      error.validation.map((v) => ({
        field: (v.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.') || String(v.params?.keys ?? v.params?.missingProperty ?? ''),
        message: v.message ?? 'Invalid value',
      })),
    );
  }
  if (error instanceof ZodError) return badInput(error.issues.map((i) => ({ field: i.path.join('.'), message: i.message })));
  if (error instanceof DomainError) {
    const field = fieldOf(error);
    if (field) return badInput([{ field, message: error.message }]);
    return { status: statusOfKind[error.kind], body: { message: error.message } };
  }
  if (error instanceof ReadModelLagError) {
    return { status: 503, body: { message: error.message }, headers: { 'retry-after': String(error.retryAfterSeconds) } };
  }
  if (error instanceof WrongExpectedRevisionError) {
    return { status: 409, body: { message: 'Someone else changed this at the same time. Please try again.' } };
  }
  const status = error.statusCode ?? 500;
  // Fastify's own client errors: malformed JSON, wrong content type, body too large.
  if (status >= 400 && status < 500) return { status, body: { message: FASTIFY_CLIENT_ERRORS[error.code] ?? error.message } };
  return null;
}

/** Error bodies are `{ message }` (plus the failing fields for bad input); never a 500 for bad input. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const answer = answerTo(error);
    if (answer)
      return reply
        .status(answer.status)
        .headers(answer.headers ?? {})
        .send(answer.body);
    // Message, code and stack only: driver errors carry query parameters and key values (personal data).
    request.log.error({ err: { type: error.name, message: error.message, code: error.code, stack: error.stack } }, 'request failed');
    return reply.status(500).send({ message: 'Something went wrong on our side. Please try again.' });
  });
}
