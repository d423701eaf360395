import type { ReactNode } from 'react';
import { useI18n } from '../i18n';
import { Empty, ErrorNotice, Loading } from './ui';

/** What LoadedList needs of a query (useQuery's result has it). */
export type ListQuery<T> = {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data: T[] | undefined;
  refetch: () => unknown;
};

/**
 * A list read through the query layer: "loading", what went wrong (with a retry; what was shown
 * stays when a refresh fails), the empty text, or the items.
 */
export function LoadedList<T>({
  list,
  empty,
  children,
}: {
  list: ListQuery<T>;
  empty: string;
  children: (items: T[]) => ReactNode;
}) {
  return (
    <>
      {list.isPending && <Loading />}
      {list.isError && <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />}
      {list.data && list.data.length === 0 && <Empty>{empty}</Empty>}
      {list.data && list.data.length > 0 && children(list.data)}
    </>
  );
}

/** "Load more" under a list read a page at a time (useInfiniteQuery), while it has more. */
export function LoadMore({
  list,
}: {
  list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
}) {
  const { t } = useI18n();
  if (!list.hasNextPage) return null;
  return (
    <p className="pager">
      <button type="button" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
        {list.isFetchingNextPage ? t('working') : t('loadMore')}
      </button>
    </p>
  );
}
