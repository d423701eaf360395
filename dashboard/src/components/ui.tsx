import QRCode from 'qrcode';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ApiFailure } from '../api';
import { useI18n, type MessageKey } from '../i18n';
import { useTitle } from '../lib/hooks';
import { explorerUrl, useNetworks } from '../lib/networks';

/** A state in words while something loads (announced politely to screen readers). */
export function Loading({ label }: { label?: string }) {
  const { t } = useI18n();
  return (
    <p className="state loading" role="status">
      <span className="spinner" aria-hidden="true" />
      {label ?? t('loading')}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="state empty">{children}</p>;
}

/** What went wrong, in words: the kind of failure in the page's language, then the API's message. */
export function ErrorNotice({
  error,
  onRetry,
  title,
}: {
  error: unknown;
  onRetry?: () => void;
  title?: string;
}) {
  const { t } = useI18n();
  const { lead, message, details } = describeError(error, t);
  return (
    <div className="notice error" role="alert">
      {title && <p className="notice-title">{title}</p>}
      <p>{lead}</p>
      {message && (
        <p className="server-message">
          {t('serverSaid')} <q>{message}</q>
        </p>
      )}
      {details.length > 0 && (
        <ul className="details-list">
          {details.map((d, i) => (
            <li key={i}>
              {d.path && <code>{d.path}</code>} {d.message}
            </li>
          ))}
        </ul>
      )}
      {onRetry && (
        <button type="button" onClick={onRetry}>
          {t('retry')}
        </button>
      )}
    </div>
  );
}

/** The lead of a failure whose status says it all (the others also tell when to try again). */
const LEAD_BY_STATUS: Partial<Record<number, MessageKey>> = {
  400: 'errValidation',
  401: 'errSession',
  403: 'errForbidden',
  404: 'errNotFound',
  409: 'errConflict',
  413: 'errTooLarge',
};

/** A problem the page found itself (a range backwards, a wrong password), in its own words. */
export function ProblemNotice({ children }: { children: ReactNode }) {
  return (
    <div className="notice error" role="alert">
      <p>{children}</p>
    </div>
  );
}

export function describeError(
  error: unknown,
  t: (key: MessageKey, vars?: Record<string, string | number>) => string,
) {
  if (!(error instanceof ApiFailure))
    return {
      lead: t('errUnexpected'),
      message: error instanceof Error ? error.message : String(error),
      details: [],
    };
  const details = error.details.map((d) => ({
    path: d.path.replace(/^(body|query|params|headers)\./, ''),
    message: d.message,
  }));
  // A validation message that only repeats the first detail ("body.x: must be …") is left to the list.
  const first = error.details[0];
  const repeatsDetails = first !== undefined && error.message.startsWith(`${first.path}: ${first.message}`);
  const message =
    error.code === 'NETWORK' || error.message === `HTTP ${error.status}` || repeatsDetails
      ? ''
      : error.message;
  const lead = (() => {
    if (error.code === 'NETWORK') return navigator.onLine ? t('errNetwork') : t('errOffline');
    const plain = LEAD_BY_STATUS[error.status];
    if (plain) return t(plain);
    switch (error.status) {
      case 429:
        if (!error.retryAfter) return t('errRateLimitedShort');
        return error.retryAfter >= 90
          ? t('errRateLimitedMinutes', { minutes: Math.ceil(error.retryAfter / 60) })
          : t('errRateLimited', { seconds: error.retryAfter });
      case 502:
      case 503:
        return error.retryAfter ? t('errUpstreamRetry', { seconds: error.retryAfter }) : t('errUpstream');
      default:
        return error.status >= 500
          ? t('errServer', { status: error.status })
          : t('errHttp', { status: error.status });
    }
  })();
  return { lead, message, details };
}

export function Notice({ kind = 'info', children }: { kind?: 'info' | 'ok' | 'warn'; children: ReactNode }) {
  return (
    <div className={`notice ${kind}`} role="status">
      {children}
    </div>
  );
}

const STATUS_CLASS: Record<string, string> = {
  PENDING: 'info',
  CONFIRMING: 'wait',
  PAID: 'ok',
  UNDERPAID: 'part',
  EXPIRED: 'bad',
  AWAITING_ADDRESS: 'wait',
  // The merchant's move: coloured like a part payment, which also wants a look.
  AWAITING_APPROVAL: 'part',
  SUCCEEDED: 'ok',
  FAILED: 'err',
  SENT: 'ok',
  // Subscriptions
  INCOMPLETE: 'info',
  TRIALING: 'wait',
  ACTIVE: 'ok',
  PAST_DUE: 'part',
  PAUSED: 'wait',
  CANCELED: 'bad',
  // Payouts (and their items: PENDING, SENT, FAILED above)
  DRAFT: 'info',
  APPROVED: 'wait',
  SENDING: 'wait',
  COMPLETED: 'ok',
  PARTIAL: 'part',
  CONFIRMED: 'ok',
};

/** An order, refund or delivery status as a coloured label with its name in words. */
export function StatusBadge({ status, label }: { status: string; label: string }) {
  return <span className={`badge ${STATUS_CLASS[status] ?? 'info'}`}>{label}</span>;
}

/** Copies `text` and says so (the button's own text changes for a moment; announced too). */
export function CopyButton({ text, label }: { text: string; label?: string }) {
  const { t } = useI18n();
  const [done, setDone] = useState<'copied' | 'failed' | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setDone('copied');
    } catch {
      setDone('failed');
    }
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setDone(null), 2500);
  };
  return (
    <button type="button" className="small" onClick={() => void copy()}>
      <span aria-live="polite">
        {done === 'copied' ? t('copied') : done === 'failed' ? t('copyFailed') : (label ?? t('copy'))}
      </span>
    </button>
  );
}

/** A value to copy: shown as text (selectable), with its copy button. */
export function CopyField({ label, value, secret }: { label: string; value: string; secret?: boolean }) {
  const id = useId();
  return (
    <div className={`copy-field${secret ? ' secret' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <div className="copy-row">
        <input id={id} readOnly value={value} spellCheck={false} onFocus={(e) => e.currentTarget.select()} />
        <CopyButton text={value} />
      </div>
    </div>
  );
}

/** A QR code drawn here (qrcode package) as an SVG data: URL image. */
export function QrCode({ text, alt, size = 200 }: { text: string; alt: string; size?: number }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    QRCode.toString(text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }).then(
      (svg) => current && setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`),
      () => current && setSrc(null),
    );
    return () => {
      current = false;
    };
  }, [text]);
  return src ? (
    <img className="qr" src={src} alt={alt} width={size} height={size} />
  ) : (
    <span className="qr placeholder" />
  );
}

/** A transaction id with a link to the network's explorer (opens in a new tab). */
export function TxLink({ network, txId }: { network: string; txId: string }) {
  const { t } = useI18n();
  const explorer = explorerUrl(useNetworks(), network, { tx: txId });
  return (
    <span className="tx">
      <code className="wrap">{txId}</code>{' '}
      {explorer && (
        <a href={explorer.url} target="_blank" rel="noopener noreferrer">
          {t('viewOn', { explorer: explorer.name })}
          <span className="sr-only"> {t('opensNewTab')}</span>
        </a>
      )}
    </span>
  );
}

/** A button that asks "are you sure?" in place before it acts. */
export function ConfirmButton({
  label,
  question,
  confirmLabel,
  onConfirm,
  danger,
  disabled,
}: {
  label: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => void | Promise<void>;
  danger?: boolean;
  disabled?: boolean;
}) {
  const { t } = useI18n();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) yes.current?.focus();
  }, [asking]);
  if (!asking)
    return (
      <button
        type="button"
        className={danger ? 'danger-outline small' : 'small'}
        disabled={disabled}
        onClick={() => setAsking(true)}
      >
        {label}
      </button>
    );
  return (
    <span className="confirm" role="group" aria-label={question}>
      <span>{question}</span>
      <button
        ref={yes}
        type="button"
        className={danger ? 'danger small' : 'primary small'}
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          try {
            await onConfirm();
          } finally {
            setBusy(false);
            setAsking(false);
          }
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" className="small" onClick={() => setAsking(false)}>
        {t('cancel')}
      </button>
    </span>
  );
}

/** The page's heading, which is also the document's title unless `documentTitle` says otherwise. */
type PageHeaderProps = { title: string; documentTitle?: string; children?: ReactNode };
export function PageHeader({ title, documentTitle, children }: PageHeaderProps) {
  useTitle(documentTitle ?? title);
  return (
    <div className="page-header">
      <h1 tabIndex={-1} id="page-title">
        {title}
      </h1>
      {children && <div className="page-actions">{children}</div>}
    </div>
  );
}

/** The page's main way on (a new link, a new subscription): a link that looks like the primary button. */
export function PrimaryLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link className="button primary" to={to}>
      {children}
    </Link>
  );
}

export function Section({
  title,
  intro,
  children,
  id,
  actions,
}: {
  title: string;
  /** A muted line under the title saying what the section is for. */
  intro?: ReactNode;
  children: ReactNode;
  id?: string;
  actions?: ReactNode;
}) {
  const headingId = useId();
  return (
    <section className="card" aria-labelledby={headingId} id={id}>
      <div className="section-head">
        <h2 id={headingId}>{title}</h2>
        {actions}
      </div>
      {intro != null && <p className="muted">{intro}</p>}
      {children}
    </section>
  );
}

/** One entry of a description list: a term and what it says. */
export function Fact({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** A labelled form control with an optional hint, ids wired for screen readers. */
export function Field({
  label,
  hint,
  children,
  id,
  className,
}: {
  label: string;
  hint?: ReactNode;
  id: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  );
}

/** Text a merchant or a payer wrote (descriptions, names, reasons, answers): always text, never markup. */
export function UserText({ text, empty }: { text: string | null | undefined; empty?: string }) {
  if (text === null || text === undefined || text === '')
    return <span className="muted">{empty ?? '—'}</span>;
  return <span className="user-text">{text}</span>;
}
