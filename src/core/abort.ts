/**
 * Waiting with an AbortSignal: the wait stops, the shared work behind it goes on (table passes, the
 * shared history fetch). Whatever reason a signal was aborted with, the wait rejects with the one
 * cancellation type, CancelledError (core/errors.ts).
 */
import { CancelledError } from './errors';

/** `promise`, or a rejection with the signal's reason as soon as `signal` aborts. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** Why signal was aborted, as the one cancellation type: its own CancelledError, or one made for the platform's reason (kept as its cause). */
export function abortReason(signal: AbortSignal): CancelledError {
  const reason: unknown = signal.reason;
  return reason instanceof CancelledError ? reason : new CancelledError({ cause: reason });
}

/** Throws, when signal has been aborted, the one cancellation type (AbortSignal.throwIfAborted would throw the platform's reason). */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortReason(signal);
}

/** Waits ms; if `signal` aborts first, the timer is cleared and the wait rejects with `cancelled()` (the caller's own error). */
export function sleep(ms: number, signal: AbortSignal | undefined, cancelled: () => Error): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled());
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      reject(cancelled());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Yields to the event loop, so a long synchronous loop lets the extension host breathe. */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
