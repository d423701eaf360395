import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { decodeEncryptionKey } from './encryption-key';

/** The secrets an instance signs tokens and seals stored secrets with. */
export type InstanceSecrets = {
  jwtSecret: string;
  encryptionKey: Buffer;
  /** The file the generated ones came from (null when both were given). */
  file: string | null;
  /** Whether this start made the file. */
  created: boolean;
};

/** The file's content: the variables' names, so an operator can copy them to another instance. */
type StoredSecrets = { JWT_SECRET: string; DATA_ENCRYPTION_KEY: string };

export const SECRETS_FILE = 'secrets.json';

/**
 * JWT_SECRET and DATA_ENCRYPTION_KEY as given, else as kept in `DATA_DIR/secrets.json`: made of
 * random bytes on the first start (mode 0600), read on every later one. No secret has a value in
 * the code, so no two installations share one. The caller (config.ts) already refuses to go
 * without them in production.
 */
export function instanceSecrets(opts: {
  dataDir: string;
  jwtSecret: string | undefined;
  encryptionKey: Buffer | undefined;
}): InstanceSecrets {
  if (opts.jwtSecret !== undefined && opts.encryptionKey !== undefined)
    return { jwtSecret: opts.jwtSecret, encryptionKey: opts.encryptionKey, file: null, created: false };
  const file = path.resolve(opts.dataDir, SECRETS_FILE);
  const { stored, created } = readOrCreate(file);
  return {
    jwtSecret: opts.jwtSecret ?? stored.JWT_SECRET,
    encryptionKey: opts.encryptionKey ?? decodeEncryptionKey(stored.DATA_ENCRYPTION_KEY)!,
    file,
    created,
  };
}

/**
 * Made once, whoever comes first: the server and the CLI, or several processes of one DATA_DIR,
 * may start at the same moment. The new file is written whole under a name of its own, then
 * linked to its place, which fails if another process got there first (its file is then read).
 */
function readOrCreate(file: string): { stored: StoredSecrets; created: boolean } {
  if (fs.existsSync(file)) return { stored: read(file), created: false };
  // 0755 like the embedded PostgreSQL's folder (its server may run as another user); the file is 0600.
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 });
  const fresh: StoredSecrets = {
    JWT_SECRET: randomBytes(48).toString('base64url'),
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  };
  const scratch = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  fs.writeFileSync(scratch, `${JSON.stringify(fresh, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(scratch, file);
    return { stored: fresh, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { stored: read(file), created: false };
  } finally {
    fs.rmSync(scratch, { force: true });
  }
}

function read(file: string): StoredSecrets {
  let parsed: Partial<Record<keyof StoredSecrets, unknown>>;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof parsed;
  } catch (error) {
    throw new Error(
      `${file} cannot be read (${(error as Error).message}): restore it, or set JWT_SECRET and DATA_ENCRYPTION_KEY`,
    );
  }
  const { JWT_SECRET: jwt, DATA_ENCRYPTION_KEY: key } = parsed ?? {};
  if (typeof jwt !== 'string' || jwt.length < 32)
    throw new Error(
      `${file} has no valid JWT_SECRET (at least 32 characters): restore it, or set JWT_SECRET`,
    );
  if (typeof key !== 'string' || decodeEncryptionKey(key) === null)
    throw new Error(
      `${file} has no valid DATA_ENCRYPTION_KEY (32 bytes as base64 or hex): restore it, or set DATA_ENCRYPTION_KEY`,
    );
  return { JWT_SECRET: jwt, DATA_ENCRYPTION_KEY: key };
}
