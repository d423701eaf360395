import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { Layout } from './components/Layout';
import { SandboxBanner } from './components/SandboxBanner';
import { ErrorNotice, Loading } from './components/ui';
import { I18nProvider, useI18n } from './i18n';
import { DevelopersPage } from './pages/Developers';
import { ExportsPage } from './pages/Exports';
import { InvitePage } from './pages/Invite';
import { MembersPage } from './pages/Members';
import { NewLinkPage } from './pages/NewLink';
import { NotFoundPage } from './pages/NotFound';
import { OrderPage } from './pages/Order';
import { OrdersPage } from './pages/Orders';
import { OverviewPage } from './pages/Overview';
import { PayoutPage } from './pages/Payout';
import { PayoutsPage } from './pages/Payouts';
import { PosPage } from './pages/Pos';
import { PosReceiptPage } from './pages/PosReceipt';
import { SettingsPage } from './pages/Settings';
import { SignInPage } from './pages/SignIn';
import { NewSubscriptionPage } from './pages/NewSubscription';
import { SubscriptionPage } from './pages/Subscription';
import { SubscriptionsPage } from './pages/Subscriptions';
import { UnattributedPage } from './pages/Unattributed';
import { WalletsPage } from './pages/Wallets';
import { newQueryClient } from './lib/queries';
import { SessionProvider, useSession } from './session';
import './styles.css';

/** Every state of the app, signed in or not, under the sandbox's banner when the service is one. */
function App() {
  return (
    <>
      <SandboxBanner />
      <Screen />
    </>
  );
}

function Screen() {
  const { status, recheck } = useSession();
  const { t } = useI18n();
  const { pathname } = useLocation();
  // The invitation page is for someone not signed in yet (or signed in as someone else).
  if (pathname.startsWith('/invite/') && status.state !== 'checking')
    return (
      <Routes>
        <Route path="invite/:token" element={<InvitePage />} />
      </Routes>
    );
  if (status.state === 'checking')
    return (
      <main id="main" className="centered">
        <Loading label={t('checkingSession')} />
      </main>
    );
  if (status.state === 'unreachable')
    return (
      <main id="main" className="centered">
        <h1>{t('appName')}</h1>
        <ErrorNotice error={status.error} onRetry={recheck} />
      </main>
    );
  if (status.state === 'signed-out') return <SignInPage reason={status.reason} />;
  // A cashier's dashboard is the point of sale: it lands there.
  const cashier = status.session.member.role === 'cashier';
  return (
    <Layout>
      <Routes>
        <Route index element={cashier ? <Navigate to="/pos" replace /> : <OverviewPage />} />
        <Route path="pos" element={<PosPage />} />
        <Route path="pos/receipt/:reference" element={<PosReceiptPage />} />
        <Route path="orders" element={<OrdersPage />} />
        <Route path="orders/:reference" element={<OrderPage />} />
        <Route path="subscriptions" element={<SubscriptionsPage />} />
        <Route path="subscriptions/new" element={<NewSubscriptionPage />} />
        <Route path="subscriptions/:id" element={<SubscriptionPage />} />
        <Route path="payouts" element={<PayoutsPage />} />
        <Route path="payouts/:id" element={<PayoutPage />} />
        <Route path="payments/unattributed" element={<UnattributedPage />} />
        <Route path="links/new" element={<NewLinkPage />} />
        <Route path="wallets" element={<WalletsPage />} />
        <Route path="developers" element={<DevelopersPage />} />
        <Route path="members" element={<MembersPage />} />
        <Route path="settings" element={<SettingsPage />} />
        <Route path="exports" element={<ExportsPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Layout>
  );
}

const queryClient = newQueryClient();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <I18nProvider>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter basename="/dashboard">
          <SessionProvider>
            <App />
          </SessionProvider>
        </BrowserRouter>
      </QueryClientProvider>
    </I18nProvider>
  </StrictMode>,
);
