import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiKeys } from '../components/developers/ApiKeys';
import { MessengerSettings } from '../components/developers/MessengerSettings';
import { WebhookSettings } from '../components/developers/WebhookSettings';
import { X402GasKeys } from '../components/developers/X402GasKeys';
import { LoadedList } from '../components/LoadedList';
import { PageHeader, Section } from '../components/ui';
import { WebhookDeliveries } from '../components/WebhookDeliveries';
import { ProfileForms } from '../components/ProfileForms';
import { useI18n } from '../i18n';
import { recentDeliveriesQuery } from '../lib/queries';

export function DevelopersPage() {
  const { t } = useI18n();
  return (
    <>
      <PageHeader title={t('navDevelopers')} />
      <p className="muted page-intro">
        {t('developersIntro')} <a href="/docs">{t('apiReference')}</a>
      </p>
      <ApiKeys />
      <ProfileForms forms={[WebhookSettings, MessengerSettings]} />
      <RecentDeliveries />
      <X402GasKeys />
    </>
  );
}

const FIRST_SHOWN = 10;

function RecentDeliveries() {
  const { t } = useI18n();
  const [all, setAll] = useState(false);
  const deliveries = useQuery(recentDeliveriesQuery);
  return (
    <Section
      title={t('recentDeliveries')}
      actions={
        <button type="button" className="small" onClick={() => void deliveries.refetch()}>
          {t('refresh')}
        </button>
      }
    >
      <LoadedList list={deliveries} empty={t('noRecentDeliveries')}>
        {(items) => (
          <>
            <WebhookDeliveries deliveries={all ? items : items.slice(0, FIRST_SHOWN)} showOrder />
            {!all && items.length > FIRST_SHOWN && (
              <button type="button" onClick={() => setAll(true)}>
                {t('showAllN', { n: items.length })}
              </button>
            )}
          </>
        )}
      </LoadedList>
    </Section>
  );
}
