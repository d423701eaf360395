import type { ReactNode } from 'react';
import { useI18n, type MessageKey } from '../i18n';

/**
 * A column head by its label's message key; numeric ones align right, a hidden label is read by
 * screen readers only.
 */
export type Column = MessageKey | { key: MessageKey; numeric?: boolean; hidden?: boolean };

/**
 * The one table markup of the dashboard: a scrolling wrapper, a caption for screen readers, a head
 * of column headers (falsy entries are columns not shown), and the rows given as children.
 */
export function DataTable({
  columns,
  caption,
  className,
  wrapClassName,
  children,
}: {
  columns: (Column | false | null | undefined)[];
  caption?: string;
  className?: string;
  wrapClassName?: string;
  children: ReactNode;
}) {
  const { t } = useI18n();
  const heads = columns.filter((c): c is Column => !!c).map((c) => (typeof c === 'string' ? { key: c } : c));
  return (
    <div className={wrapClassName ? `table-wrap ${wrapClassName}` : 'table-wrap'}>
      <table className={className}>
        {caption && <caption className="sr-only">{caption}</caption>}
        <thead>
          <tr>
            {heads.map((c) => (
              <th key={c.key} scope="col" className={c.numeric ? 'num' : undefined}>
                {c.hidden ? <span className="sr-only">{t(c.key)}</span> : t(c.key)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
