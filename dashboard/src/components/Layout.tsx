import { useEffect, useRef, useState, type ReactNode } from 'react';
import { NavLink, useLocation } from 'react-router';
import type { Permission } from '../../../contract';
import { LOCALE_NAMES, LOCALES, useI18n, type Locale, type MessageKey } from '../i18n';
import { useOnline } from '../lib/hooks';
import { useCan, useSession } from '../session';
import { ErrorNotice } from './ui';

/** The pages, each shown only to a member whose role has its permission (contract/permissions.ts). */
const NAV: { to: string; key: MessageKey; end?: boolean; needs: Permission }[] = [
  { to: '/', key: 'navOverview', end: true, needs: 'exports:read' },
  { to: '/pos', key: 'navPos', needs: 'orders:write' },
  { to: '/orders', key: 'navOrders', needs: 'orders:read' },
  { to: '/subscriptions', key: 'navSubscriptions', needs: 'subscriptions:read' },
  { to: '/payouts', key: 'navPayouts', needs: 'payouts:read' },
  { to: '/payments/unattributed', key: 'navUnattributed', needs: 'events:read' },
  { to: '/links/new', key: 'navNewLink', needs: 'orders:write' },
  { to: '/wallets', key: 'navWallets', needs: 'account:read' },
  { to: '/developers', key: 'navDevelopers', needs: 'keys:write' },
  { to: '/members', key: 'navMembers', needs: 'account:read' },
  { to: '/settings', key: 'navSettings', needs: 'account:read' },
  { to: '/exports', key: 'navExports', needs: 'exports:read' },
];

export function LanguageSelect() {
  const { locale, setLocale, t } = useI18n();
  return (
    <label className="lang">
      <span className="lang-label">{t('language')}</span>
      <select value={locale} onChange={(e) => setLocale(e.target.value as Locale)}>
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LOCALE_NAMES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Says so while the browser is offline (the online/offline events): requests wait for the network. */
export function OfflineBanner() {
  const { t } = useI18n();
  const online = useOnline();
  if (online) return null;
  return (
    <div className="offline" role="status">
      {t('offline')}
    </div>
  );
}

export function Brand() {
  return (
    <span className="brand">
      <img src="/pay/icon.svg" alt="" width={28} height={28} />
      <span>stablepay</span>
    </span>
  );
}

/** The signed-in frame: header, navigation, the page. */
export function Layout({ children }: { children: ReactNode }) {
  const { t } = useI18n();
  const { status, signOut } = useSession();
  const can = useCan();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [signOutError, setSignOutError] = useState<unknown>(null);
  const first = useRef(true);

  // A new page: close the menu and move focus to its heading, as a page load would.
  useEffect(() => {
    setMenuOpen(false);
    if (first.current) {
      first.current = false;
      return;
    }
    requestAnimationFrame(() => document.getElementById('page-title')?.focus());
  }, [location.pathname]);

  const merchant = status.state === 'signed-in' ? status.session.merchant : null;
  return (
    <div className="app">
      <a className="skip" href="#main">
        {t('skipToContent')}
      </a>
      <header className="topbar">
        <Brand />
        <button
          type="button"
          className="menu-toggle small"
          aria-expanded={menuOpen}
          aria-controls="main-nav"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? t('closeMenu') : t('menu')}
        </button>
        <div className="account">
          <LanguageSelect />
          {merchant && (
            <span className="who" title={merchant.email}>
              {merchant.full_name || merchant.email}
            </span>
          )}
          <button
            type="button"
            className="small"
            onClick={() => {
              setSignOutError(null);
              signOut().catch((error: unknown) => setSignOutError(error));
            }}
          >
            {t('signOut')}
          </button>
        </div>
      </header>
      <nav id="main-nav" className={menuOpen ? 'open' : undefined} aria-label={t('mainNav')}>
        <ul>
          {NAV.filter((item) => can(item.needs)).map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} end={item.end}>
                {t(item.key)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main">
        <OfflineBanner />
        {signOutError != null && <ErrorNotice error={signOutError} />}
        {children}
      </main>
    </div>
  );
}

/** The frame of the pages shown before sign-in (this one, the invitation's): brand, language, the card. */
export function SignedOutFrame({ children }: { children: ReactNode }) {
  return (
    <div className="signin-page">
      <header className="signin-top">
        <Brand />
        <LanguageSelect />
      </header>
      <main id="main" className="signin">
        <OfflineBanner />
        {children}
      </main>
    </div>
  );
}
