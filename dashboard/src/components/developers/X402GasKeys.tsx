import { useQuery } from '@tanstack/react-query';
import { useI18n } from '../../i18n';
import { useFormat } from '../../lib/format';
import { x402GasKeysQuery } from '../../lib/queries';
import { DataTable } from '../DataTable';
import { ErrorNotice, Loading, Notice, Section, StatusBadge } from '../ui';

/**
 * The facilitator's gas keys (x402): each one's balance and about how many settlements it pays
 * for, with a warning when that is below the operator's threshold, before settlements are refused.
 * Shown where the operator gave one.
 */
export function X402GasKeys() {
  const { t } = useI18n();
  const f = useFormat();
  const gas = useQuery(x402GasKeysQuery);
  const low = gas.data?.gasKeys.some((k) => k.low) ?? false;
  // An instance without x402 (no gas key given) has nothing to show here.
  if (gas.data && gas.data.gasKeys.length === 0) return null;
  return (
    <Section
      title={t('x402GasKeys')}
      intro={t('x402GasKeysIntro')}
      actions={
        <button type="button" className="small" onClick={() => void gas.refetch()}>
          {t('refresh')}
        </button>
      }
    >
      {gas.isPending && <Loading />}
      {gas.isError && <ErrorNotice error={gas.error} onRetry={() => void gas.refetch()} />}
      {low && (
        <Notice kind="warn">{t('x402GasLowNotice', { n: f.int(gas.data!.warnBelowSettlements) })}</Notice>
      )}
      {gas.data && gas.data.gasKeys.length > 0 && (
        <DataTable
          className="responsive"
          caption={t('x402GasKeys')}
          columns={['network', 'walletAddress', 'x402GasBalance', 'x402GasLeft', 'status']}
        >
          {gas.data.gasKeys.map((k) => (
            <tr key={k.caip2}>
              <td data-label={t('network')}>{k.network}</td>
              <td data-label={t('walletAddress')}>
                <code>{k.address}</code>
              </td>
              <td data-label={t('x402GasBalance')}>
                {k.balance === null ? '—' : f.token(k.balance, k.coin)}
              </td>
              <td data-label={t('x402GasLeft')}>
                {k.settlementsLeft === null ? '—' : t('x402GasAbout', { n: f.int(k.settlementsLeft) })}
              </td>
              <td data-label={t('status')}>
                {k.low === null ? (
                  <StatusBadge status="EXPIRED" label={t('x402GasUnknown')} />
                ) : k.low ? (
                  <StatusBadge status="FAILED" label={t('x402GasLow')} />
                ) : (
                  <StatusBadge status="PAID" label={t('x402GasOk')} />
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </Section>
  );
}
