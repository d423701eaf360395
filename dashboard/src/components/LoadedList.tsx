import type { ReactNode } from 'react';
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
