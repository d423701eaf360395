import { useId, useState } from 'react';
import { contract, MAX_RANGE_DAYS } from '../../../contract';
import { NetworkOptions, TextField } from '../components/form';
import { Field, PageHeader, ProblemNotice, Section } from '../components/ui';
import { useI18n } from '../i18n';
import { addDays, browserTimeZone, daysBetween, todayIn, useFormat } from '../lib/format';

/**
 * Exports are plain links to the contract's CSV routes: the browser downloads them with the session
 * cookie (a same-origin GET), streamed to disk however long the file is.
 */
const exportHref = (path: string, query: Record<string, string>) => `${path}?${new URLSearchParams(query)}`;

export function ExportsPage() {
  const { t } = useI18n();
  const f = useFormat();
  const ids = useId();
  const timeZone = browserTimeZone();
  const today = todayIn(timeZone);
  const [range, setRange] = useState({ from: addDays(today, -29), to: today });
  const { from, to } = range;
  // Each end bounds the other, so the browser's picker offers only days that make a range.
  const ends = [
    { end: 'from', label: t('fromDay'), bound: { max: to || undefined } },
    { end: 'to', label: t('toDay'), bound: { min: from || undefined } },
  ] as const;
  const [network, setNetwork] = useState('');
  const span = from && to ? daysBetween(from, to) : -1;
  const problem =
    !from || !to
      ? t('rangeMissing')
      : span < 0
        ? t('rangeBackwards')
        : span >= MAX_RANGE_DAYS
          ? t('rangeTooLong', { days: MAX_RANGE_DAYS })
          : null;
  const query = { from, to, timeZone };
  return (
    <>
      <PageHeader title={t('navExports')} />
      <p className="muted page-intro">{t('exportsIntro')}</p>
      <Section title={t('dateRange')}>
        <div className="form-grid">
          {ends.map(({ end, label, bound }) => (
            <TextField
              key={end}
              id={`${ids}-${end}`}
              label={label}
              type="date"
              value={range[end]}
              {...bound}
              onChange={(e) => setRange({ ...range, [end]: e.target.value })}
            />
          ))}
        </div>
        <p className="muted">{t('exportTimeZone', { timeZone })}</p>
        {problem ? (
          <ProblemNotice>{problem}</ProblemNotice>
        ) : (
          <p>{t('exportRange', { from: f.dayLong(from), to: f.dayLong(to), days: span + 1 })}</p>
        )}
      </Section>
      <div className="grid two">
        <Section title={t('ordersCsv')}>
          <p>{t('ordersCsvText')}</p>
          <Field id={`${ids}-network`} label={t('network')} hint={t('ordersCsvNetworkHint')}>
            <select
              id={`${ids}-network`}
              value={network}
              aria-describedby={`${ids}-network-hint`}
              onChange={(e) => setNetwork(e.target.value)}
            >
              <option value="">{t('any')}</option>
              <NetworkOptions all />
            </select>
          </Field>
          {problem ? (
            <p className="muted">{t('fixRangeFirst')}</p>
          ) : (
            <a
              className="button primary"
              href={exportHref(contract.dashboard.exportOrders.path, network ? { ...query, network } : query)}
              download={`orders-${from}-to-${to}.csv`}
            >
              {t('downloadOrders')}
            </a>
          )}
        </Section>
        <Section title={t('paymentsCsv')}>
          <p>{t('paymentsCsvText')}</p>
          {problem ? (
            <p className="muted">{t('fixRangeFirst')}</p>
          ) : (
            <a
              className="button primary"
              href={exportHref(contract.dashboard.exportPayments.path, query)}
              download={`payments-${from}-to-${to}.csv`}
            >
              {t('downloadPayments')}
            </a>
          )}
        </Section>
      </div>
      <p className="muted">{t('exportsFormat')}</p>
    </>
  );
}
