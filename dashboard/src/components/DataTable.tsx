import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useI18n, type MessageKey } from '../i18n';
import { useFormat } from '../lib/format';
import { UserText } from './ui';

/**
 * A column head by its label's message key; numeric ones align right, a hidden label is read by
 * screen readers only.
 */
export type Column = MessageKey | { key: MessageKey; numeric?: boolean; hidden?: boolean };

/** A column of numbers (amounts, counts): its head and cells align right. */
export const numeric = (key: MessageKey): Column => ({ key, numeric: true });

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

/**
 * A row's first cell: the link to the row's own page, named by its id (in code type), and the
 * description the merchant wrote under it when `description` is given (null: "No description").
 */
export function LinkCell({
  column,
  to,
  id,
  description,
}: {
  column: MessageKey;
  to: string;
  id: string;
  description?: string | null;
}) {
  const { t } = useI18n();
  return (
    <td data-label={t(column)}>
      <Link to={to} className="order-link">
        <code>{id}</code>
      </Link>
      {description !== undefined && (
        <div className="desc">
          <UserText text={description} empty={t('noDescription')} />
        </div>
      )}
    </td>
  );
}

/** A cell of a date and time (kept on one line), or "—" when there is none. */
export function DateCell({ column, at }: { column: MessageKey; at: string | null | undefined }) {
  const { t } = useI18n();
  const f = useFormat();
  return (
    <td data-label={t(column)} className="nowrap">
      {at ? f.dateTime(at) : '—'}
    </td>
  );
}
