import { useState } from 'react';
import { DESCRIPTION_MAX } from '../../../../contract';
import { useI18n } from '../../i18n';
import { TextField } from '../form';

/**
 * The optional description of what a form creates (a payment link, each period's order of a
 * subscription), which the payer reads on the checkout. `body` is it as the API takes it: trimmed,
 * and left out when empty.
 */
export function useDescription() {
  const [description, setDescription] = useState('');
  const trimmed = description.trim();
  return { description, setDescription, body: trimmed ? { description: trimmed } : {} };
}

export function DescriptionField({ id, form }: { id: string; form: ReturnType<typeof useDescription> }) {
  const { t } = useI18n();
  return (
    <TextField
      id={id}
      label={t('descriptionOptional')}
      hint={t('descriptionHint')}
      maxLength={DESCRIPTION_MAX}
      value={form.description}
      onChange={(e) => form.setDescription(e.target.value)}
    />
  );
}
