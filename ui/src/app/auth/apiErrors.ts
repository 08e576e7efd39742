/**
 * Reads an error thrown by `apiRequest` (`Error("<status>: <body>")`). A fetch that never got an
 * answer (offline, DNS, CORS) throws a TypeError instead: that is reported as `network`.
 */
export type ApiFailure =
  | { kind: 'network' }
  | { kind: 'http'; status: number; message: string | undefined; error: string | undefined; text: string };

export function readApiError(error: unknown): ApiFailure {
  if (!(error instanceof Error)) return { kind: 'network' };
  const match = /^(\d{3}): ([\s\S]*)$/.exec(error.message);
  if (!match) return { kind: 'network' };
  const status = Number(match[1]);
  const text = match[2] ?? '';
  let message: string | undefined;
  let errorText: string | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object') {
      if ('message' in parsed && typeof parsed.message === 'string' && parsed.message) message = parsed.message;
      if ('error' in parsed && typeof parsed.error === 'string' && parsed.error) errorText = parsed.error;
    }
  } catch {
    // not JSON
  }
  return { kind: 'http', status, message, error: errorText, text };
}

/**
 * The text to show for a failed verify/resend call: the server's `error` field, else its
 * `message`, else `fallback`; `networkMessage` when there was no answer at all.
 */
export function verificationErrorText(error: unknown, fallback: string, networkMessage: string): string {
  const failure = readApiError(error);
  if (failure.kind === 'network') return networkMessage;
  return failure.error ?? failure.message ?? fallback;
}
