import { afterAll, beforeAll } from 'vitest';
import { startTelegramServer } from './telegram-server';
import { startTestServer, type TestServer } from './test-server';
import { startWebhookReceiver } from './webhook-receiver';

/** The bot token the local Telegram Bot API server answers for. */
export const TEST_BOT_TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawQ';

/**
 * A server whose deliveries go to local receivers: a webhook receiver and a Telegram Bot API
 * server, with the delivery job every second and quick retries (`env` adds or overrides).
 */
export async function startDeliveryStack(env: Record<string, string> = {}) {
  const receiver = await startWebhookReceiver();
  const telegram = await startTelegramServer(TEST_BOT_TOKEN);
  const server: TestServer = await startTestServer({
    JOB_DELIVER_EVENTS_CRON: '* * * * * *',
    WEBHOOK_RETRY_BASE_MS: '300',
    WEBHOOK_TIMEOUT_MS: '1500',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    MESSENGER_API_BASE_URL: telegram.baseUrl,
    ...env,
  });
  return {
    server,
    receiver,
    telegram,
    async stop() {
      await server.stop();
      await receiver.stop();
      await telegram.stop();
    },
  };
}

export type DeliveryStack = Awaited<ReturnType<typeof startDeliveryStack>>;

/**
 * A delivery stack for the file's tests: started before them and handed to `started` (where the
 * file keeps what it uses), stopped after them.
 */
export function useDeliveryStack(env: Record<string, string>, started: (stack: DeliveryStack) => void) {
  let stack: DeliveryStack | undefined;
  beforeAll(async () => {
    stack = await startDeliveryStack(env);
    started(stack);
  });
  afterAll(async () => {
    await stack?.stop();
  });
}
