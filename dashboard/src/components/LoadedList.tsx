import type { ReactNode } from 'react';
import { Link } from 'react-router';
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

/** How a list shows: the text when it is empty, what it says while loading, its items. */
type Shown<T> = { empty: ReactNode; loadingLabel?: string; children: (items: T[]) => ReactNode };

/**
 * A list read through the query layer: "loading", what went wrong (with a retry; what was shown
 * stays when a refresh fails), the empty text, or the items.
 */
export function LoadedList<T>({ list, empty, loadingLabel, children }: { list: ListQuery<T> } & Shown<T>) {
  return (
    <>
      {list.isPending && <Loading label={loadingLabel} />}
      {list.isError && <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />}
      {list.data && list.data.length === 0 && <Empty>{empty}</Empty>}
      {list.data && list.data.length > 0 && children(list.data)}
    </>
  );
}

/** Why a filtered list is empty: nothing matches the filters, or nothing yet, and the way to make the first. */
export function NothingListed({
  filtered,
  matches,
  yet,
  first,
}: {
  filtered: boolean;
  matches: string;
  yet: string;
  first: { to: string; label: string };
}) {
  return (
    <>
      {filtered ? matches : yet} {!filtered && <Link to={first.to}>{first.label}</Link>}
    </>
  );
}

/** What PagedList needs of a query read a page at a time (useInfiniteQuery's result has it). */
export type PagedQuery<T> = Omit<ListQuery<T>, 'data'> &
  MoreToRead & { data: { pages: { items: T[] }[] } | undefined };

type MoreToRead = { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };

/** A list read a page at a time: a LoadedList of every item read so far, then "Load more". */
export function PagedList<T>({ list, ...shown }: { list: PagedQuery<T> } & Shown<T>) {
  const items = list.data?.pages.flatMap((page) => page.items);
  return (
    <>
      <LoadedList list={{ ...list, data: items }} {...shown} />
      <LoadMore list={list} />
    </>
  );
}

/** "Load more" under a list read a page at a time (useInfiniteQuery), while it has more. */
export function LoadMore({ list }: { list: MoreToRead }) {
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
