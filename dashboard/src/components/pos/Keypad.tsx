import { useEffect } from 'react';
import { useI18n } from '../../i18n';

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '00', '0', 'back'] as const;

/** The amount's keys, by touch and by keyboard (digits, Backspace, Escape; Enter charges). */
export function Keypad({
  onKey,
  onEnter,
  enabled,
}: {
  onKey: (key: string) => void;
  onEnter: () => void;
  enabled: boolean;
}) {
  const { t } = useI18n();
  useEffect(() => {
    if (!enabled) return;
    const listener = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target && ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName)) return;
      if (/^[0-9]$/.test(e.key)) onKey(e.key);
      else if (e.key === 'Backspace') onKey('back');
      else if (e.key === 'Escape' || e.key === 'Delete') onKey('clear');
      else if (e.key === 'Enter') onEnter();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, [enabled, onKey, onEnter]);
  return (
    <div className="pos-keypad" role="group" aria-label={t('posKeypad')}>
      {KEYS.map((key) => (
        <button
          key={key}
          type="button"
          className="pos-key"
          disabled={!enabled}
          onClick={() => onKey(key)}
          aria-label={key === 'back' ? t('posBackspace') : key}
        >
          {key === 'back' ? '⌫' : key}
        </button>
      ))}
    </div>
  );
}
