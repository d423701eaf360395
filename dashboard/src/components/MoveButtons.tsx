import { useI18n, type MessageKey } from '../i18n';
import { useAction } from '../lib/actions';
import { ConfirmButton, ErrorNotice, Notice } from './ui';

/** One move on a thing (approve, cancel, pause…): its button's label, the question, the yes. */
export type Move<M extends string> = {
  move: M;
  label: MessageKey;
  question: MessageKey;
  yes: MessageKey;
  danger?: boolean;
};

/**
 * The moves a thing allows now, each a button that asks first; while one runs the others wait, and
 * the API's refusal is said under them (with `sayBusy`, "Working…" too while one runs). Nothing
 * shows when no move is allowed and none failed. Falsy entries are moves not allowed now.
 */
export function MoveButtons<M extends string>({
  moves,
  run,
  sayBusy,
}: {
  moves: (Move<M> | false)[];
  run: (move: M) => Promise<unknown>;
  sayBusy?: boolean;
}) {
  const { t } = useI18n();
  const action = useAction(run);
  const allowed = moves.filter((m): m is Move<M> => m !== false);
  if (allowed.length === 0 && action.error == null) return null;
  return (
    <div>
      <div className="actions">
        {allowed.map((m) => (
          <ConfirmButton
            key={m.move}
            label={t(m.label)}
            question={t(m.question)}
            confirmLabel={t(m.yes)}
            danger={m.danger}
            disabled={action.busy}
            onConfirm={() => action.run(m.move)}
          />
        ))}
      </div>
      {action.error != null && <ErrorNotice error={action.error} />}
      {sayBusy && action.busy && <Notice kind="info">{t('working')}</Notice>}
    </div>
  );
}
