import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { DashboardSession, Permission } from '../../contract';
import { api, failureOf, ok, onUnauthenticated, setCsrfToken } from './api';
import { forgetMerchantData } from './lib/queries';

/** Why the sign-in page is shown: to say so in words. */
export type SignedOutReason = 'initial' | 'ended' | 'signed-out' | 'password-changed';

type SessionState =
  | { state: 'checking' }
  | { state: 'signed-out'; reason: SignedOutReason }
  | { state: 'unreachable'; error: unknown }
  | { state: 'signed-in'; session: DashboardSession };

/** What a correct password leads to when two-factor sign-in stands between it and the session. */
export type SignInStep = { step: 'code'; mfaToken: string } | { step: 'setup'; setupToken: string };

type SessionApi = {
  status: SessionState;
  /** Signed in, or the step before it (a code; enrolment when the account requires it). */
  signIn: (email: string, password: string) => Promise<SignInStep | null>;
  /** The code step: the mfaToken the password gave and a TOTP or recovery code. */
  signInWithCode: (mfaToken: string, code: string) => Promise<void>;
  signOut: () => Promise<void>;
  /** The server ended the session (a password change): show the sign-in page with why. */
  ended: (reason: SignedOutReason) => void;
  recheck: () => void;
  /** The profile changed (name): what the header shows follows. */
  updateMerchant: (merchant: Partial<DashboardSession['merchant']>) => void;
};

const SessionContext = createContext<SessionApi | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<SessionState>({ state: 'checking' });
  const client = useQueryClient();

  const ended = useCallback(
    (reason: SignedOutReason) => {
      setCsrfToken(null);
      setStatus({ state: 'signed-out', reason });
      forgetMerchantData(client);
    },
    [client],
  );

  const check = useCallback(async () => {
    setStatus({ state: 'checking' });
    try {
      const answer = await api.dashboard.session();
      if (answer.status === 401 || answer.status === 403) return ended('initial');
      const session = ok(answer, 200);
      setCsrfToken(session.csrfToken);
      setStatus({ state: 'signed-in', session });
    } catch (error) {
      setStatus({ state: 'unreachable', error });
    }
  }, [ended]);

  useEffect(() => {
    void check();
    onUnauthenticated(() => ended('ended'));
    return () => onUnauthenticated(undefined);
  }, [check, ended]);

  const begin = useCallback(
    (session: DashboardSession) => {
      forgetMerchantData(client);
      setCsrfToken(session.csrfToken);
      setStatus({ state: 'signed-in', session });
    },
    [client],
  );

  const signIn = useCallback(
    async (email: string, password: string): Promise<SignInStep | null> => {
      const answer = await api.dashboard.signIn({ body: { email, password } });
      if (answer.status !== 200) throw failureOf(answer);
      const body = answer.body;
      if ('mfaRequired' in body) return { step: 'code', mfaToken: body.mfaToken };
      if ('twoFactorSetupRequired' in body) return { step: 'setup', setupToken: body.setupToken };
      begin(body);
      return null;
    },
    [begin],
  );

  const signInWithCode = useCallback(
    async (mfaToken: string, code: string) => {
      const answer = await api.dashboard.signInMfa({ body: { mfaToken, code } });
      if (answer.status !== 200) throw failureOf(answer);
      begin(answer.body);
    },
    [begin],
  );

  // Signed out only once the service has ended the session (or it had ended already): a failed
  // request leaves the cookie working, and the page says so rather than pretend.
  const signOut = useCallback(async () => {
    const answer = await api.dashboard.signOut();
    if (answer.status !== 204 && answer.status !== 401) throw failureOf(answer);
    ended('signed-out');
  }, [ended]);

  const updateMerchant = useCallback((merchant: Partial<DashboardSession['merchant']>) => {
    setStatus((current) =>
      current.state === 'signed-in'
        ? {
            ...current,
            session: { ...current.session, merchant: { ...current.session.merchant, ...merchant } },
          }
        : current,
    );
  }, []);

  const value = useMemo(
    () => ({ status, signIn, signInWithCode, signOut, ended, recheck: () => void check(), updateMerchant }),
    [status, signIn, signInWithCode, signOut, ended, check, updateMerchant],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionApi {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/** The signed-in merchant (only inside the signed-in layout). */
export function useMerchant(): DashboardSession['merchant'] {
  const { status } = useSession();
  if (status.state !== 'signed-in') throw new Error('useMerchant while signed out');
  return status.session.merchant;
}

/** The signed-in member (only inside the signed-in layout). */
export function useMember(): DashboardSession['member'] {
  const { status } = useSession();
  if (status.state !== 'signed-in') throw new Error('useMember while signed out');
  return status.session.member;
}

/**
 * Whether the signed-in member's role may do something (the session's permissions, from the one
 * table): the dashboard offers nothing else.
 */
export function useCan(): (permission: Permission) => boolean {
  const { status } = useSession();
  const held = status.state === 'signed-in' ? status.session.permissions : [];
  return (permission) => held.includes(permission);
}
