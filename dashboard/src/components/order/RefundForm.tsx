import { useId, useState } from 'react';
import type { Order, Refund } from '../../../../contract';
import { api, newIdempotencyKey, ok } from '../../api';
import { useI18n } from '../../i18n';
import { useFormSubmit } from '../../lib/actions';
import { parseUnits } from '../../../../contract/decimal';
import { useFormat } from '../../lib/format';
import { networkName } from '../../lib/labels';
import { useRefresh } from '../../lib/queries';
import { changedByWrite } from '../../lib/query-keys';
import { AddressField, RadioChoices, SubmitWithFailure, TextField } from '../form';
import { Notice } from '../ui';

/**
 * A new refund of the order: how much (what the order can still refund, as the API says), why, and
 * where to (asking the payer, or an address the merchant knows).
 */
export function RefundForm({ order, refunds }: { order: Order; refunds: Refund[] }) {
  const { t } = useI18n();
  const f = useFormat();
  const ids = useId();
  const refresh = useRefresh();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [mode, setMode] = useState<'ask' | 'address'>('ask');
  const [to, setTo] = useState('');
  const [created, setCreated] = useState<Refund | null>(null);
  // One Idempotency-Key per body: a retried submit of the same refund cannot create a second one.
  const [attempt, setAttempt] = useState<{ body: string; key: string } | null>(null);

  // What a new refund may still take: the API's word (received less what refunds hold).
  const left = order.amountRefundable;
  const { busy, error, submit } = useFormSubmit(async () => {
    const body = {
      ...(amount.trim() ? { amount: amount.trim() } : {}),
      ...(reason.trim() ? { reason: reason.trim() } : {}),
      ...(mode === 'address' && to.trim() ? { to: to.trim() } : {}),
    };
    const json = JSON.stringify(body);
    const key = attempt?.body === json ? attempt.key : newIdempotencyKey();
    setAttempt({ body: json, key });
    const refund = ok(
      await api.refunds.create({
        params: { reference: order.reference },
        body,
        headers: { 'idempotency-key': key },
      }),
      201,
    );
    setCreated(refund);
    setAmount('');
    setReason('');
    setTo('');
    setAttempt(null);
    refresh(changedByWrite.refund(order.reference));
  });
  // "Send it …" only while the refund just created still waits for that (the list follows it live).
  const latest = created && (refunds.find((r) => r.id === created.id) ?? created);
  const shown =
    latest && (latest.status === 'AWAITING_ADDRESS' || latest.status === 'PENDING') ? latest : null;
  if (parseUnits(order.amountReceived, order.decimals) <= 0n)
    return <p className="hint">{t('refundNothingReceived')}</p>;
  if (parseUnits(left, order.decimals) <= 0n) return <p className="hint">{t('refundNothingLeft')}</p>;

  return (
    <form className="refund-form" onSubmit={submit} aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`}>{t('newRefund')}</h3>
      {shown && (
        <Notice kind="ok">
          {t('refundCreated', { amount: f.token(shown.amount, shown.token) })}{' '}
          {shown.status === 'AWAITING_ADDRESS' ? t('refundCreatedAsk') : t('refundCreatedSign')}
        </Notice>
      )}
      <div className="form-grid">
        <TextField
          id={`${ids}-amount`}
          label={t('refundAmount', { token: order.token })}
          hint={t('refundAmountHint', { left: f.token(left, order.token) })}
          inputMode="decimal"
          value={amount}
          placeholder={left}
          maxLength={40}
          onChange={(e) => setAmount(e.target.value)}
        />
        <TextField
          id={`${ids}-reason`}
          label={t('reasonOptional')}
          value={reason}
          maxLength={500}
          onChange={(e) => setReason(e.target.value)}
        />
      </div>
      <fieldset>
        <legend>{t('refundDestination')}</legend>
        <RadioChoices
          name={`${ids}-mode`}
          value={mode}
          onChange={setMode}
          options={[
            { value: 'ask', label: t('askPayer') },
            { value: 'address', label: t('sendToAddress') },
          ]}
        />
        {mode === 'address' && (
          <AddressField
            id={`${ids}-to`}
            label={t('refundAddress', { network: networkName(order.network) })}
            value={to}
            onChange={(e) => setTo(e.target.value)}
          />
        )}
      </fieldset>
      <SubmitWithFailure error={error} busy={busy} label={t('createRefund')} />
    </form>
  );
}
