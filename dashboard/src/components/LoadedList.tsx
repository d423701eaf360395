import type { ReactNode } from 'react';
import type { Loaded } from '../lib/hooks';
import { Empty, ErrorNotice, Loading } from './ui';

/** A loaded list: "loading", what went wrong (with a retry), the empty text, or the items. */
export function LoadedList<T>({
  list,
  reload,
  empty,
  children,
}: {
  list: Loaded<T[]>;
  reload: (quiet?: boolean) => unknown;
  empty: string;
  children: (items: T[]) => ReactNode;
}) {
  return (
    <>
      {list.state === 'loading' && <Loading />}
      {list.state === 'error' && <ErrorNotice error={list.error} onRetry={() => void reload(false)} />}
      {list.data && list.data.length === 0 && <Empty>{empty}</Empty>}
      {list.data && list.data.length > 0 && children(list.data)}
    </>
  );
}
