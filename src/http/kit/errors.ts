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

/** Error bodies are `{ message }` (plus the failing fields for bad input); never a 500 for bad input. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: FieldError[] = error.validation.map((v) => ({
        field: (v.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.') || String(v.params?.keys ?? v.params?.missingProperty ?? ''),
        message: v.message ?? 'Invalid value',
      }));
      const first = errors[0];
      // The message is the rule's own words (the UI shows it as is); `field` names the input.
      return reply.status(400).send({
        message: first?.message ?? 'Invalid request',
        field: first?.field,
        errors,
      });
    }
    if (error instanceof ZodError) {
      const errors = error.issues.map((i) => ({ field: i.path.join('.'), message: i.message }));
      return reply.status(400).send({ message: errors[0]?.message ?? 'Invalid request', field: errors[0]?.field, errors });
    }
    if (error instanceof DomainError) return reply.status(statusOfKind[error.kind]).send({ message: error.message });
    if (error instanceof ReadModelLagError) {
      return reply.status(503).header('retry-after', String(error.retryAfterSeconds)).send({ message: error.message });
    }
    if (error instanceof WrongExpectedRevisionError) {
      return reply.status(409).send({ message: 'Someone else changed this at the same time. Please try again.' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, wrong content type, body too large.
      const message =
        error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? 'Unsupported content type: send JSON'
          : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? 'Request body is too large'
            : error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY'
              ? 'Request body is not valid JSON'
              : error.message;
      return reply.status(status).send({ message });
    }
    // Message, code and stack only: driver errors carry query parameters and key values (personal data).
    request.log.error({ err: { type: error.name, message: error.message, code: error.code, stack: error.stack } }, 'request failed');
    return reply.status(500).send({ message: 'Something went wrong on our side. Please try again.' });
  });
}
