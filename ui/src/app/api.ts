import type { QueryFunction } from '@tanstack/react-query';

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
