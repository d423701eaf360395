import { useI18n } from '../i18n';
import type { LiveState } from '../lib/hooks';
import { describeError } from './ui';

/** Whether the page is following the live events: "Live", "starting", or paused and why. */
export function LiveIndicator({ live }: { live: LiveState }) {
  const { t } = useI18n();
  if (live.state === 'paused')
    return (
      <p className="live paused" role="status">
        {t('livePaused')} {describeError(live.error, t).lead}
      </p>
    );
  return (
    <p className={`live ${live.state}`} role="status">
      <span className="dot" aria-hidden="true" />
      {live.state === 'live' ? t('liveOn') : t('liveStarting')}
    </p>
  );
}
