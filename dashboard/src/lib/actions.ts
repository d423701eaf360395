import { useState, type FormEvent } from 'react';

/**
 * Runs `action` with a busy flag and its last failure (cleared when it starts again). With
 * `staysBusy`, a success leaves it busy: the page is about to go (signed in, signed out).
 */
export function useAction(action: () => Promise<unknown>, { staysBusy = false } = {}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      await action();
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
