import { useId, useState } from 'react';
import { api, ok } from '../../api';
import { useI18n } from '../../i18n';
import { useAction, useFormSubmit } from '../../lib/actions';
import { SubmitButton, TextField } from '../form';
import { ErrorNotice, Notice, Section, UserText } from '../ui';
import type { ProfileFormProps } from '../ProfileForms';

/** The messenger chat that hears the order events, its bot token, and a test message. */
export function MessengerSettings({ profile, onProfile }: ProfileFormProps) {
  const { t } = useI18n();
  const ids = useId();
  const [chatId, setChatId] = useState(profile.messenger_chat_id ?? '');
  const [botToken, setBotToken] = useState('');
  const [clearToken, setClearToken] = useState(false);
  const [saved, setSaved] = useState(false);
  const [test, setTest] = useState<{ status: string; error: string | null } | null>(null);

  const {
    busy: saving,
    error,
    submit: save,
  } = useFormSubmit(async () => {
    setSaved(false);
    const body = {
      messenger_chat_id: chatId.trim() ? chatId.trim() : null,
      ...(clearToken
        ? { messenger_bot_token: null }
        : botToken.trim()
          ? { messenger_bot_token: botToken.trim() }
          : {}),
    };
    onProfile(ok(await api.profile.update({ body }), 200));
    setBotToken('');
    setClearToken(false);
    setSaved(true);
  });

  const testSend = useAction(async () => {
    setTest(null);
    const attempt = ok(await api.profile.sendTestMessage(), 200);
    setTest({ status: attempt.status, error: attempt.error });
  });

  return (
    <Section title={t('messenger')} intro={t('messengerIntro')}>
      <form className="form" onSubmit={save}>
        <div className="form-grid">
          <TextField
            id={`${ids}-chat`}
            label={t('chatId')}
            hint={t('chatIdHint')}
            maxLength={33}
            value={chatId}
            onChange={(e) => setChatId(e.target.value)}
          />
          <TextField
            id={`${ids}-token`}
            label={t('botToken')}
            hint={profile.messenger_bot_token_set ? t('botTokenSet') : t('botTokenNotSet')}
            type="password"
            autoComplete="off"
            maxLength={121}
            value={botToken}
            disabled={clearToken}
            onChange={(e) => setBotToken(e.target.value)}
          />
        </div>
        {profile.messenger_bot_token_set && (
          <label className="choice">
            <input type="checkbox" checked={clearToken} onChange={(e) => setClearToken(e.target.checked)} />
            {t('removeBotToken')}
          </label>
        )}
        {error != null && <ErrorNotice error={error} />}
        {saved && <Notice kind="ok">{t('saved')}</Notice>}
        <div className="actions">
          <SubmitButton busy={saving} label={t('save')} />
          <button type="button" onClick={() => void testSend.run()} disabled={testSend.busy}>
            {testSend.busy ? t('sending') : t('sendTestMessage')}
          </button>
        </div>
      </form>
      <div aria-live="polite">
        {test && (
          <Notice kind={test.status === 'SENT' ? 'ok' : 'warn'}>
            {test.status === 'SENT' ? t('testMessageSent') : t('testMessageFailed')}
            {test.error && (
              <>
                {' '}
                <UserText text={test.error} />
              </>
            )}
          </Notice>
        )}
      </div>
      {testSend.error != null && <ErrorNotice error={testSend.error} />}
    </Section>
  );
}
