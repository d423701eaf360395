import { useState, type FormEvent } from 'react';
import { newIdempotencyKey } from '../api';

/**
 * Runs `action` with a busy flag and its last failure (cleared when it starts again). With
 * `staysBusy`, a success leaves it busy: the page is about to go (signed in, signed out).
 */
export function useAction<A extends unknown[] = []>(
  action: (...args: A) => Promise<unknown>,
  { staysBusy = false } = {},
) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (...args: A) => {
    setBusy(true);
    setError(null);
    try {
      await action(...args);
      if (!staysBusy) setBusy(false);
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };
  return { busy, error, run };
}

/** `useAction` as a form's submit handler (the browser's own submit is prevented). */
export function useFormSubmit(action: () => Promise<unknown>, options?: { staysBusy?: boolean }) {
  const { busy, error, run } = useAction(action, options);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    return run();
  };
  return { busy, error, submit };
}

/**
 * The Idempotency-Key of a creation form: a retry of the same body (after an error) sends the same
 * key, so it cannot create twice; another body is another creation, with a new key.
 */
export function useIdempotencyKey() {
  const [attempt, setAttempt] = useState<{ body: string; key: string } | null>(null);
  return {
    keyFor(body: unknown) {
      const json = JSON.stringify(body);
      const key = attempt?.body === json ? attempt.key : newIdempotencyKey();
      setAttempt({ body: json, key });
      return key;
    },
    reset: () => setAttempt(null),
  };
}
