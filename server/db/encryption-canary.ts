import { QueryTypes, type Sequelize } from 'sequelize';
import type { SecretBox } from '../lib/secret-box';

const CANARY = 'stablepay encryption canary';

/** The key in force cannot open what the database holds: start-up stops, naming the variable. */
export class EncryptionKeyMismatchError extends Error {
  override name = 'EncryptionKeyMismatchError';
}

/**
 * Whether `box` opens the database's sealed secrets, checked once at start-up: a server with
 * another key would fail every webhook and messenger send, and seal new secrets that its siblings
 * cannot open. The first start writes the canary; a database older than the canary is checked on
 * one stored secret before it gets one. Two first starts at once keep one canary, and the loser
 * checks it like any later start.
 */
export async function checkEncryptionKey(
  sequelize: Sequelize,
  box: SecretBox,
  keySource: string,
): Promise<void> {
  const refuse = (what: string) =>
    new EncryptionKeyMismatchError(
      `DATA_ENCRYPTION_KEY (${keySource}) cannot decrypt ${what}, sealed with another key: ` +
        'start with the DATA_ENCRYPTION_KEY this database was first used with ' +
        '(every instance sharing a database needs the same one)',
    );
  const opens = (sealed: string, expected?: string) => {
    try {
      const plain = box.open(sealed);
      return expected === undefined || plain === expected;
    } catch {
      return false;
    }
  };
  const read = () =>
    sequelize.query<{ sealed: string }>('SELECT sealed FROM encryption_canary', { type: QueryTypes.SELECT });
  let [canary] = await read();
  if (!canary) {
    const [stored] = await sequelize.query<{ sealed: string }>(
      `SELECT coalesce(webhook_secret_sealed, messenger_bot_token_sealed, previous_webhook_secret_sealed) AS sealed
         FROM merchants
        WHERE coalesce(webhook_secret_sealed, messenger_bot_token_sealed, previous_webhook_secret_sealed) IS NOT NULL
        LIMIT 1`,
      { type: QueryTypes.SELECT },
    );
    if (stored && !opens(stored.sealed)) throw refuse("the secrets stored in this database's merchants");
    await sequelize.query('INSERT INTO encryption_canary (sealed) VALUES ($sealed) ON CONFLICT DO NOTHING', {
      bind: { sealed: box.seal(CANARY) },
    });
    [canary] = await read();
  }
  if (!canary || !opens(canary.sealed, CANARY)) throw refuse("this database's encryption canary");
}
