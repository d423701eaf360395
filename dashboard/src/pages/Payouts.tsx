import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { PAYOUT_STATUSES, type PayoutStatus } from '../../../contract';
import { api, ApiFailure, ok } from '../api';
import { DataTable, DateCell, LinkCell, numeric } from '../components/DataTable';
import { Options } from '../components/form';
import { PagedList } from '../components/LoadedList';
import { LiveIndicator } from '../components/LiveIndicator';
import { ErrorNotice, Field, PageHeader, Section, StatusBadge } from '../components/ui';
import { useI18n } from '../i18n';
import { useFormSubmit } from '../lib/actions';
import { useLive } from '../lib/hooks';
import { PAYOUT_STATUS_KEYS } from '../lib/labels';
import { payoutsQuery, useRefresh } from '../lib/queries';
import { changedByWrite } from '../lib/query-keys';
import { useCan } from '../session';

/**
 * The merchant's payouts, newest first (a status filter kept in the address), a page at a time, and
 * a new payout from a CSV file: the file's text goes to POST /payouts/import, which names every bad
 * row before making anything; the new payout's page opens.
 */
export function PayoutsPage() {
  const { t } = useI18n();
  const can = useCan();
  const [params, setParams] = useSearchParams();
  const wanted = params.get('status') ?? '';
  const status = (PAYOUT_STATUSES as readonly string[]).includes(wanted) ? (wanted as PayoutStatus) : '';
  const list = useInfiniteQuery(payoutsQuery(status));
  const live = useLive({});
  return (
    <>
      <PageHeader title={t('navPayouts')} />
      <p className="muted page-intro">{t('payoutsIntro')}</p>
      {can('payouts:write') && <ImportPayout />}
      <form className="card filters" role="search" aria-label={t('filterPayouts')}>
        <Field id="p-status" label={t('status')}>
          <select
            id="p-status"
            value={status}
            onChange={(e) => setParams(e.target.value ? { status: e.target.value } : {})}
          >
            <option value="">{t('any')}</option>
            <Options values={PAYOUT_STATUSES} label={(s) => t(PAYOUT_STATUS_KEYS[s])} />
          </select>
        </Field>
      </form>
      <div className="list-head">
        <LiveIndicator live={live} />
      </div>
      <PagedList
        list={list}
        loadingLabel={t('loadingPayouts')}
        empty={status ? t('noPayoutsMatch') : t('noPayoutsYet')}
      >
        {(items) => (
          <DataTable
            wrapClassName="card flush"
            className="payouts responsive"
            caption={t('payoutsCaption')}
            columns={['payout', 'status', numeric('payoutItems'), 'created']}
          >
            {items.map((p) => (
              <tr key={p.id}>
                <LinkCell
                  column="payout"
                  to={`/payouts/${encodeURIComponent(p.id)}`}
                  id={p.id}
                  description={p.description}
                />
                <td data-label={t('status')}>
                  <StatusBadge status={p.status} label={t(PAYOUT_STATUS_KEYS[p.status])} />
                </td>
                <td data-label={t('payoutItems')} className="num">
                  {p.itemCount}
                </td>
                <DateCell column="created" at={p.createdAt} />
              </tr>
            ))}
          </DataTable>
        )}
      </PagedList>
    </>
  );
}

/** The CSV upload: a file and an optional description; the rows the API refuses, each in words. */
function ImportPayout() {
  const { t } = useI18n();
  const ids = useId();
  const navigate = useNavigate();
  const refresh = useRefresh();
  const [file, setFile] = useState<File | null>(null);
  const [description, setDescription] = useState('');
  const { busy, error, submit } = useFormSubmit(async () => {
    if (!file) return;
    const body = {
      csv: await file.text(),
      ...(description.trim() ? { description: description.trim() } : {}),
    };
    const payout = ok(await api.payouts.importCsv({ body }), 201);
    refresh(changedByWrite.createPayout());
    await navigate(`/payouts/${encodeURIComponent(payout.id)}`);
  });
  return (
    <Section title={t('importPayouts')} intro={t('importPayoutsIntro')}>
      <form onSubmit={(e: FormEvent) => void submit(e)} className="form-grid">
        <Field id={`${ids}-file`} label={t('csvFile')}>
          <input
            id={`${ids}-file`}
            type="file"
            accept=".csv,text/csv"
            required
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </Field>
        <Field id={`${ids}-description`} label={t('payoutDescription')}>
          <input
            id={`${ids}-description`}
            maxLength={500}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </Field>
        <div className="filter-actions">
          <button type="submit" className="primary" disabled={busy || !file}>
            {t('makePayout')}
          </button>
        </div>
      </form>
      {error != null && <RowProblems error={error} />}
    </Section>
  );
}

/** A refused CSV: each bad row by its number counted from 1 (the API counts data rows from 0). */
function RowProblems({ error }: { error: unknown }) {
  const { t } = useI18n();
  if (!(error instanceof ApiFailure) || error.code !== 'VALIDATION_ERROR' || error.details.length === 0)
    return <ErrorNotice error={error} />;
  return (
    <div className="notice error" role="alert">
      <p>{t('badPayoutRows')}</p>
      <ul className="details-list">
        {error.details.map((d, i) => {
          const row = /^items\.(\d+)(?:\.(\w+))?$/.exec(d.path);
          return (
            <li key={i}>
              {row
                ? t('payoutRowProblem', { n: Number(row[1]) + 1, field: row[2] ?? '—', message: d.message })
                : t('payoutFileProblem', { message: d.message })}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
