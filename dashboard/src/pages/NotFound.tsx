import { Link } from 'react-router';
import { PageHeader } from '../components/ui';
import { useI18n } from '../i18n';
import { useTitle } from '../lib/hooks';

export function NotFoundPage() {
  const { t } = useI18n();
  useTitle(t('notFoundTitle'));
  return (
    <>
      <PageHeader title={t('notFoundTitle')} />
      <div className="card">
        <p>{t('notFoundText')}</p>
        <p>
          <Link to="/">{t('navOverview')}</Link>
        </p>
      </div>
    </>
  );
}
