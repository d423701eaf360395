import { Link } from 'react-router';
import { PageHeader } from '../components/ui';
import { useI18n } from '../i18n';

export function NotFoundPage() {
  const { t } = useI18n();
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
