import { toStorableText } from '../../domain/kit/storableText.ts';

/** PostgreSQL codes of a lost connection, a server shutting down, a serialization failure, a lock timeout, too many clients. */
const TRANSIENT = new Set(['57P01', '57P02', '57P03', '08000', '08003', '08006', '40001', '40P01', '55P03', '53300']);

/** Connection loss or a server shutdown is retried; anything else in `apply` is a poison event. */
export function isTransient(error: unknown): boolean {
  const e = error as { code?: string; errno?: string };
  return (
    TRANSIENT.has(e?.code ?? '') ||
    ['CONNECTION_ENDED', 'CONNECTION_CLOSED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT', 'ECONNRESET', 'ECONNREFUSED'].includes(
      e?.code ?? e?.errno ?? '',
    )
  );
}

/** An error as text PostgreSQL can store (no NUL, no lone surrogate), of bounded length. */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return toStorableText(text).slice(0, 2000);
}

/** Runs `work` fast; when that fails with anything but a transient error, once more carefully. */
export async function fastThenCareful<T>(work: (careful: boolean) => Promise<T>): Promise<T> {
  try {
    return await work(false);
  } catch (error) {
    if (isTransient(error)) throw error;
    return work(true);
  }
}
