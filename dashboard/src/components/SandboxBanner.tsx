import { useI18n } from '../i18n';
import { useSandbox } from '../lib/networks';

/**
 * "Sandbox, no real money" on every page of a sandbox, sign-in included (GET /networks is public):
 * in words, not only in colour, kept in view while the page scrolls, and never dismissed.
 */
export function SandboxBanner() {
  const { t } = useI18n();
  if (!useSandbox()) return null;
  return (
    <p className="sandbox-banner" role="status" id="sandbox-banner">
      <strong>{t('sandboxBanner')}</strong> <span>{t('sandboxBannerHint')}</span>
    </p>
  );
}
