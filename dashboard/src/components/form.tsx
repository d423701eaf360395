import type { FormEvent, InputHTMLAttributes, ReactNode } from 'react';
import { NETWORKS } from '../../../contract';
import { useI18n } from '../i18n';
import { networkName } from '../lib/labels';
import { useNetworks } from '../lib/networks';
import { ErrorNotice, Field, Section } from './ui';

/** A section that is one form (a setting and its save button): its title, what it is for, the form. */
export function FormSection({
  title,
  intro,
  onSubmit,
  children,
}: {
  title: string;
  intro?: ReactNode;
  onSubmit: (event: FormEvent) => unknown;
  children: ReactNode;
}) {
  return (
    <Section title={title} intro={intro}>
      <form className="form" onSubmit={onSubmit}>
        {children}
      </form>
    </Section>
  );
}

/** A labelled text input: its hint, when there is one, describes it for screen readers. */
export function TextField({
  id,
  label,
  hint,
  ...input
}: { id: string; label: string; hint?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Field id={id} label={label} hint={hint}>
      <input id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
    </Field>
  );
}

/**
 * One <option> a network, named in words: the networks the service has on (GET /networks), or
 * with `all` every network an order may name (a filter also finds orders of a network now off).
 */
export function NetworkOptions({ all = false }: { all?: boolean }) {
  const networks = useNetworks();
  return <Options values={all ? NETWORKS : networks.on.map((n) => n.network)} label={networkName} />;
}

/** One <option> a value, shown as `label` says (the value itself by default). */
export function Options<V extends string | number>({
  values,
  label = String,
}: {
  values: readonly V[];
  label?: (value: V) => string;
}) {
  return values.map((v) => (
    <option key={v} value={v}>
      {label(v)}
    </option>
  ));
}

/** One of a few options, a radio each with its label beside it, all under one `name`. */
export function RadioChoices<V extends string>({
  name,
  value,
  onChange,
  options,
}: {
  name: string;
  value: V;
  onChange: (value: V) => void;
  options: { value: V; label: ReactNode }[];
}) {
  return options.map((option) => (
    <label key={option.value} className="choice">
      <input
        type="radio"
        name={name}
        checked={value === option.value}
        onChange={() => onChange(option.value)}
      />
      {option.label}
    </label>
  ));
}

/** A form's primary submit button, "Working…" while busy. */
export function SubmitButton({
  busy,
  label,
  disabled,
}: {
  busy: boolean;
  label: string;
  disabled?: boolean;
}) {
  const { t } = useI18n();
  return (
    <button type="submit" className="primary" disabled={busy || disabled}>
      {busy ? t('working') : label}
    </button>
  );
}

/** A form's end: why its last submit failed, when it did, then its submit button. */
export function SubmitWithFailure({
  error,
  ...button
}: { error: unknown } & Parameters<typeof SubmitButton>[0]) {
  return (
    <>
      {error != null && <ErrorNotice error={error} />}
      <SubmitButton {...button} />
    </>
  );
}

/** A required password input (at most 1024 characters), labelled like `TextField`. */
export function PasswordField(props: Parameters<typeof TextField>[0]) {
  return <TextField type="password" required maxLength={1024} {...props} />;
}

/** An https:// address input (at most 2048 characters), labelled like `TextField`. */
export function UrlField(props: Parameters<typeof TextField>[0]) {
  return <TextField type="url" maxLength={2048} placeholder="https://" {...props} />;
}

/** A required wallet address input (no spell check, no autofill), labelled like `TextField`. */
export function AddressField(props: Parameters<typeof TextField>[0]) {
  return <TextField required maxLength={100} spellCheck={false} autoComplete="off" {...props} />;
}
