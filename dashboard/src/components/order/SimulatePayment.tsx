import { useId, useState } from 'react';
import type { Order } from '../../../../contract';
import { api, ok } from '../../api';
import { useI18n } from '../../i18n';
import { useFormSubmit } from '../../lib/actions';
import { shortTx, useFormat } from '../../lib/format';
import { useRefresh } from '../../lib/queries';
import { changedByWrite } from '../../lib/query-keys';
import { simulatedAmount, simulatedKinds, type SimulatedKind } from '../../lib/sandbox';
import { Options, SubmitWithFailure } from '../form';
import { Field, Notice } from '../ui';
import { useOptionName } from './PaymentOptions';

const KIND_KEYS = { exact: 'simulateExact', part: 'simulatePart', over: 'simulateOver' } as const;

/**
 * The sandbox's "Simulate payment" (shown on a sandbox only): a real transfer on the local chain
 * from a funded payer (POST /sandbox/orders/{reference}/pay), of what is due, part of it or more,
 * tagged or plain, reported or left for the scanner. The order then changes as its events say.
 */
export function SimulatePayment({ order }: { order: Order }) {
  const { t } = useI18n();
  const f = useFormat();
  const ids = useId();
  const refresh = useRefresh();
  const optionName = useOptionName();
  const options = order.paymentOptions;
  const [chosenKind, setKind] = useState<SimulatedKind>('exact');
  const [optionIndex, setOptionIndex] = useState(0);
  const [tagged, setTagged] = useState(true);
  const [report, setReport] = useState(false);
  const [sent, setSent] = useState<{ amount: string; token: string; txId: string } | null>(null);

  const option = options[optionIndex] ?? options[0]!;
  const kinds = simulatedKinds(option);
  const kind = kinds.includes(chosenKind) ? chosenKind : kinds[0]!;
  const { busy, error, submit } = useFormSubmit(async () => {
    setSent(null);
    const amount = simulatedAmount(kind, option);
    const { txId } = ok(
      await api.sandbox.pay({
        params: { reference: order.reference },
        body: {
          ...(amount ? { amount } : {}),
          ...(options.length > 1 ? { network: option.network, token: option.token } : {}),
          tagged,
          report,
        },
      }),
      200,
    );
    setSent({ amount: amount ?? option.amountDue, token: option.token, txId });
    refresh(changedByWrite.sandboxPay(order.reference));
  });

  return (
    <form className="simulate-payment" onSubmit={submit}>
      <p className="hint">{t('simulateIntro')}</p>
      <div className="form-grid">
        <Field id={`${ids}-kind`} label={t('simulateKind')}>
          <select id={`${ids}-kind`} value={kind} onChange={(e) => setKind(e.target.value as SimulatedKind)}>
            <Options values={kinds} label={(k) => t(KIND_KEYS[k])} />
          </select>
        </Field>
        {options.length > 1 && (
          <Field id={`${ids}-option`} label={t('simulateOption')}>
            <select
              id={`${ids}-option`}
              value={optionIndex}
              onChange={(e) => setOptionIndex(Number(e.target.value))}
            >
              <Options values={options.map((_, i) => i)} label={(i) => optionName(options[i]!)} />
            </select>
          </Field>
        )}
      </div>
      <label className="choice">
        <input type="checkbox" checked={tagged} onChange={(e) => setTagged(e.target.checked)} />
        <span>{t('simulateTagged')}</span>
      </label>
      <label className="choice">
        <input type="checkbox" checked={report} onChange={(e) => setReport(e.target.checked)} />
        <span>{t('simulateReport')}</span>
      </label>
      {sent && (
        <Notice kind="ok">
          {t('simulateSent', { amount: f.token(sent.amount, sent.token), tx: shortTx(sent.txId) })}
        </Notice>
      )}
      <SubmitWithFailure error={error} busy={busy} label={t('simulateSubmit')} />
    </form>
  );
}
