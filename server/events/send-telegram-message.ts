import { postJson, type PostResult } from './http-post';

export type MessengerResult = PostResult & { ok: boolean; retryAfterSeconds: number | null };

/**
 * Telegram Bot API `sendMessage`. The token is part of the URL, so it is scrubbed from anything
 * this returns: records and logs never see it.
 */
export async function sendTelegramMessage(opts: {
  baseUrl: string;
  botToken: string;
  chatId: string;
  text: string;
  timeoutMs: number;
}): Promise<MessengerResult> {
  const url = `${opts.baseUrl.replace(/\/+$/, '')}/bot${opts.botToken}/sendMessage`;
  const payload = JSON.stringify({ chat_id: opts.chatId, text: opts.text, disable_web_page_preview: true });
  const result = await postJson(url, payload, { timeoutMs: opts.timeoutMs, guard: false });
  const scrub = (s: string | null) => (s === null ? null : s.split(opts.botToken).join('[redacted]'));
  let ok = false;
  let retryAfterSeconds: number | null = null;
  try {
    const parsed = JSON.parse(result.body ?? '') as { ok?: boolean; parameters?: { retry_after?: unknown } };
    ok = parsed.ok === true && result.status === 200;
    const retryAfter = parsed.parameters?.retry_after;
    if (typeof retryAfter === 'number' && retryAfter > 0) retryAfterSeconds = retryAfter;
  } catch {
    ok = false;
  }
  return { ...result, body: scrub(result.body), error: scrub(result.error), ok, retryAfterSeconds };
}
