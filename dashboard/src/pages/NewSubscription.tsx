import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  CUSTOMER_LANGUAGES,
  MAX_INTERVAL_COUNT,
  SUBSCRIPTION_INTERVALS,
  type SubscriptionInterval,
} from '../../../contract';
import { api, ok } from '../api';
import { DescriptionField, useDescription } from '../components/price/DescriptionField';
import { Options, SubmitWithFailure, TextField } from '../components/form';
import {
  AnyNetworkField,
  NetworkTokenFields,
  PriceFields,
  usePriceForm,
} from '../components/price/PriceFields';
import { Field, PageHeader } from '../components/ui';
import { LOCALE_NAMES, useI18n, type Locale } from '../i18n';
import { useFormSubmit, useIdempotencyKey } from '../lib/actions';
import { INTERVAL_KEYS } from '../lib/labels';
import { useRefresh } from '../lib/queries';
import { changedByWrite } from '../lib/query-keys';
import { subscriptionPath } from '../lib/subscriptions';

/**
 * A new subscription: the customer (e-mail, name, the language of their page and e-mails), the
 * price per period (as a payment link's), the period, trial and days to pay, and the start. Once
 * made, its page opens (its first order, the customer's page to send).
 */
export function NewSubscriptionPage() {
  const { t, locale } = useI18n();
  const ids = useId();
  const navigate = useNavigate();
  const refresh = useRefresh();
  const price = usePriceForm();
  const attempt = useIdempotencyKey();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [language, setLanguage] = useState<Locale>(locale);
  const [interval, setInterval] = useState<SubscriptionInterval>('month');
  const [count, setCount] = useState('1');
  const description = useDescription();
  const [trialDays, setTrialDays] = useState('0');
  const [dueDays, setDueDays] = useState('');
  const [startAt, setStartAt] = useState('');

  const { busy, error, submit } = useFormSubmit(async () => {
    const body = {
      ...price.body,
      customer: {
        ...(email.trim() ? { email: email.trim() } : {}),
        ...(name.trim() ? { name: name.trim() } : {}),
        language,
      },
      interval,
      intervalCount: Number(count),
      ...description.body,
      trialDays: Number(trialDays || '0'),
      ...(dueDays.trim() ? { dueDays: Number(dueDays) } : {}),
      // The local date and time picked, as an instant.
      ...(startAt ? { startAt: new Date(startAt).toISOString() } : {}),
    };
    const key = attempt.keyFor(body);
    const created = ok(await api.subscriptions.create({ body, headers: { 'idempotency-key': key } }), 201);
    refresh(changedByWrite.createSubscription());
    await navigate(subscriptionPath(created.id));
  });

  return (
    <>
      <PageHeader title={t('navNewSubscription')} />
      <p className="muted page-intro">{t('newSubscriptionIntro')}</p>
      <form className="card form" onSubmit={submit}>
        <fieldset>
          <legend>{t('customerSection')}</legend>
          <div className="form-grid">
            <TextField
              id={`${ids}-email`}
              label={t('customerEmailOptional')}
              hint={t('customerEmailHint')}
              type="email"
              maxLength={254}
              autoComplete="off"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
            <TextField
              id={`${ids}-name`}
              label={t('customerNameOptional')}
              maxLength={200}
              autoComplete="off"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <Field id={`${ids}-lang`} label={t('customerLanguage')}>
            <select
              id={`${ids}-lang`}
              value={language}
              onChange={(e) => setLanguage(e.target.value as Locale)}
            >
              <Options values={CUSTOMER_LANGUAGES} label={(l) => LOCALE_NAMES[l]} />
            </select>
          </Field>
        </fieldset>
        <fieldset>
          <legend>{t('billingSection')}</legend>
          <NetworkTokenFields form={price} />
          <PriceFields form={price} />
          <div className="form-grid">
            <TextField
              id={`${ids}-count`}
              label={t('intervalCount')}
              hint={t('intervalCountHint')}
              type="number"
              required
              min={1}
              max={MAX_INTERVAL_COUNT[interval]}
              value={count}
              onChange={(e) => setCount(e.target.value)}
            />
            <Field id={`${ids}-interval`} label={t('intervalUnit')}>
              <select
                id={`${ids}-interval`}
                value={interval}
                onChange={(e) => setInterval(e.target.value as SubscriptionInterval)}
              >
                <Options values={SUBSCRIPTION_INTERVALS} label={(i) => t(INTERVAL_KEYS[i].unit)} />
              </select>
            </Field>
          </div>
          <AnyNetworkField form={price} />
        </fieldset>
        <DescriptionField id={`${ids}-desc`} form={description} />
        <div className="form-grid">
          <TextField
            id={`${ids}-trial`}
            label={t('trialDays')}
            hint={t('trialDaysHint')}
            type="number"
            min={0}
            max={365}
            value={trialDays}
            onChange={(e) => setTrialDays(e.target.value)}
          />
          <TextField
            id={`${ids}-due`}
            label={t('dueDays')}
            hint={t('dueDaysHint')}
            type="number"
            min={1}
            max={365}
            value={dueDays}
            onChange={(e) => setDueDays(e.target.value)}
          />
          <TextField
            id={`${ids}-start`}
            label={t('startAt')}
            hint={t('startAtHint')}
            type="datetime-local"
            value={startAt}
            onChange={(e) => setStartAt(e.target.value)}
          />
        </div>
        <SubmitWithFailure error={error} busy={busy} label={t('createSubscription')} />
      </form>
    </>
  );
}
