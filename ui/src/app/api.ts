import type { QueryFunction } from '@tanstack/react-query';
import type { z } from 'zod';

/**
 * The data layer of spec part 1 §7: every request sends credentials (cookies), a body is sent as
 * JSON only when there is one, and any non-2xx response becomes an Error whose message is
 * `${status}: ${responseText || statusText}`.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiRequestOptions {
  /** Extra headers, e.g. `{ 'Idempotency-Key': key }`. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** Throws `Error("<status>: <response text or status text>")` when the response is not OK. */
export async function throwIfResNotOk(res: Response): Promise<void> {
  if (!res.ok) {
    const text = (await res.text().catch(() => '')) || res.statusText;
    throw new Error(`${res.status}: ${text}`);
  }
}

export async function apiRequest(method: HttpMethod, url: string, body?: unknown, options: ApiRequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  const init: RequestInit = { method, credentials: 'include', headers };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  if (options.signal) init.signal = options.signal;

  const res = await fetch(url, init);
  await throwIfResNotOk(res);
  return res;
}

/**
 * Extracts the server's `{ message }` from an error thrown by `apiRequest`, falling back to the
 * raw text after the status, or to `fallback` when there is nothing usable.
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (!(error instanceof Error)) return fallback;
  const match = /^\d{3}: ([\s\S]*)$/.exec(error.message);
  const raw = match?.[1] ?? '';
  if (!raw) return fallback;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string') {
      return parsed.message || fallback;
    }
  } catch {
    // not JSON: use the text as it is
  }
  return raw;
}

/**
 * The server's words from a failed call, as the tutor area and the reschedule dialog show them:
 * `{message}`, `{details}` (joined, as the availability failure of spec part 2 §8), `{error}`, or
 * the raw text; `fallback` when there is nothing or the text is over 300 characters. Kept apart from errorMessage because the two differ on `{details}`,
 * `{error}` and long texts, and merging them would change what one side's toasts say.
 */
export function serverMessage(error: unknown, fallback: string): string {
  if (!(error instanceof Error)) return fallback;
  const raw = /^\d{3}: ([\s\S]*)$/.exec(error.message)?.[1] ?? '';
  if (!raw) return fallback;
  try {
    const body: unknown = JSON.parse(raw);
    if (body && typeof body === 'object') {
      const b = body as { message?: unknown; details?: unknown; error?: unknown };
      if (Array.isArray(b.details) && b.details.length > 0) {
        return b.details.map((d) => (typeof d === 'string' ? d : ((d as { message?: string })?.message ?? JSON.stringify(d)))).join('; ');
      }
      if (typeof b.message === 'string' && b.message) return b.message;
      if (typeof b.error === 'string' && b.error) return b.error;
    }
  } catch {
    // not JSON
  }
  return raw.length > 300 ? fallback : raw;
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/**
 * The default data read: joins the query key parts with "/" into the path, GETs it and parses
 * JSON. With `on401: 'returnNull'` a 401 resolves to null (used for the current user).
 */
export function getQueryFn<T>(options: { on401: 'returnNull' }): QueryFunction<T | null>;
export function getQueryFn<T>(options: { on401: 'throw' }): QueryFunction<T>;
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T | null>;
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const res = await fetch(queryKey.join('/'), { credentials: 'include', signal });
    if (on401 === 'returnNull' && res.status === 401) return null;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}

// ---------------------------------------------------------------------------------------------
// The typed client: every answer is read through the zod schema of its endpoint (shared with the
// server through `@shared/…`, the server and the UI share it), so a
// caller's type is the schema's output and a drifted answer fails loudly at the call.

/** A 2xx answer whose body does not match the endpoint's schema (the UI and server disagree). */
export class ApiContractError extends Error {
  constructor(
    readonly path: string,
    readonly issues: z.core.$ZodIssue[],
  ) {
    super(`Unexpected answer from ${path}: ${issues.map((i) => `${i.path.join('.') || '(body)'} ${i.message}`).join('; ')}`);
    this.name = 'ApiContractError';
  }
}

async function readAnswer<S extends z.ZodType>(res: Response, path: string, schema: S): Promise<z.output<S>> {
  const body: unknown = await res.json();
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiContractError(path, parsed.error.issues);
  return parsed.data;
}

export const api = {
  /** GET `path`; the answer parsed with `schema`. */
  async get<S extends z.ZodType>(path: string, schema: S, options: ApiRequestOptions = {}): Promise<z.output<S>> {
    return readAnswer(await apiRequest('GET', path, undefined, options), path, schema);
  },
  /** A write with an optional JSON body; the answer parsed with `schema`. */
  async send<S extends z.ZodType>(
    method: Exclude<HttpMethod, 'GET'>,
    path: string,
    body: unknown,
    schema: S,
    options: ApiRequestOptions = {},
  ): Promise<z.output<S>> {
    return readAnswer(await apiRequest(method, path, body, options), path, schema);
  },
};

/**
 * A query function for `path` whose answer is parsed with `schema`; with `on401: 'returnNull'` a
 * 401 resolves to null (the current-user read, spec part 1 §7).
 */
export function jsonQuery<S extends z.ZodType>(
  path: string,
  schema: S,
  options: { on401: 'returnNull' },
): QueryFunction<z.output<S> | null>;
export function jsonQuery<S extends z.ZodType>(path: string, schema: S, options?: { on401: 'throw' }): QueryFunction<z.output<S>>;
export function jsonQuery<S extends z.ZodType>(
  path: string,
  schema: S,
  { on401 }: { on401: UnauthorizedBehavior } = { on401: 'throw' },
): QueryFunction<z.output<S> | null> {
  return async ({ signal }) => {
    const res = await fetch(path, { credentials: 'include', signal });
    if (on401 === 'returnNull' && res.status === 401) return null;
    await throwIfResNotOk(res);
    return readAnswer(res, path, schema);
  };
}
