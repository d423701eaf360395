import type { Deps } from '../deps';
import { failure, settingsPlace, type Outcome, type Sendable } from './delivery';
import { postJson } from './http-post';
import { eventMessengerText, type EventData } from './message-text';

/**
 * The messenger sender: the event's text to the chat in force now (the order's, else the
 * profile's), by the Telegram Bot API's `sendMessage`. The bot token is part of the URL, so it is
 * scrubbed from anything this returns: records and logs never see it.
 */
export async function sendMessengerMessage(
  deps: Pick<Deps, 'config' | 'secrets'>,
  { event, merchant, order }: Sendable,
): Promise<Outcome> {
  const { data } = JSON.parse(event.body) as { data: EventData };
  const text = eventMessengerText(event.type, data);
  const chatId = order?.messengerChatId ?? merchant.messengerChatId;
  if (!chatId) return failure(`the messenger chat was removed from ${settingsPlace(order)}`, text, true);
  if (!merchant.messengerBotTokenSealed)
    return failure('messenger bot token was removed from the profile', text, true);
  const botToken = deps.secrets.open(merchant.messengerBotTokenSealed);
  const url = `${deps.config.MESSENGER_API_BASE_URL.replace(/\/+$/, '')}/bot${botToken}/sendMessage`;
  const payload = JSON.stringify({ chat_id: chatId, text, disable_web_page_preview: true });
  const result = await postJson(url, payload, { timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS, guard: false });
  const scrub = (s: string | null) => (s === null ? null : s.split(botToken).join('[redacted]'));
  const answer = parseAnswer(result.body);
  const ok = answer.ok === true && result.status === 200;
  const retryAfter = answer.parameters?.retry_after;
  return {
    ...result,
    ok,
    body: scrub(result.body),
    error: scrub(result.error) ?? (ok ? null : `HTTP ${result.status}`),
    retryAfterSeconds: typeof retryAfter === 'number' && retryAfter > 0 ? retryAfter : null,
    target: chatId,
    requestBody: text,
  };
}

type BotApiAnswer = { ok?: unknown; parameters?: { retry_after?: unknown } };

function parseAnswer(body: string | null): BotApiAnswer {
  try {
    const parsed: unknown = JSON.parse(body ?? '');
    return typeof parsed === 'object' && parsed !== null ? (parsed as BotApiAnswer) : {};
  } catch {
    return {};
  }
}
