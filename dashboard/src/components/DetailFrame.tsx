import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { LiveState } from '../lib/hooks';
import { LiveIndicator } from './LiveIndicator';
import { useI18n } from '../i18n';
import { ErrorNotice, Loading, PageHeader, Section, UserText } from './ui';

/** What DetailFrame needs of the query reading the one thing (useQuery's result has it). */
export type DetailQuery<T> = {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data: T | undefined;
  refetch: () => unknown;
};

/**
 * The frame of a page about one thing read by its id (an order, a payout, a subscription): the
 * link back to its list and its title, then "loading", what went wrong with a
 * retry, or the thing itself under its live indicator. A refresh that fails keeps what was read
 * before on screen and says why above it.
 */
export function DetailFrame<T>({
  back,
  title,
  query,
  live,
  headerExtras,
  loadingLabel,
  children,
}: {
  back: { to: string; label: string };
  title: string;
  query: DetailQuery<T>;
  live: LiveState;
  /** Beside the title once the thing is read (its status, a download). */
  headerExtras?: (data: T) => ReactNode;
  loadingLabel?: string;
  children: (data: T) => ReactNode;
}) {
  const data = query.data;
  return (
    <>
      <p className="breadcrumb">
        <Link to={back.to}>{back.label}</Link>
      </p>
      <PageHeader title={title}>{data !== undefined && headerExtras?.(data)}</PageHeader>
      {query.isPending && <Loading label={loadingLabel} />}
      {data === undefined ? (
        query.isError && <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <LiveIndicator live={live} />
          {query.isError && <ErrorNotice error={query.error} />}
          {children(data)}
        </>
      )}
    </>
  );
}

/** The section of a thing's details (an order, a subscription), led by the description the merchant wrote. */
export function DetailsSection({
  title,
  description,
  children,
}: {
  title: string;
  description: string | null;
  children: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <Section title={title}>
      <p className="order-description">
        <UserText text={description} empty={t('noDescription')} />
      </p>
      {children}
    </Section>
  );
}
