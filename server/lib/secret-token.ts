import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes in base64url: 43 characters. */
export const SECRET_TOKEN_PATTERN = '[A-Za-z0-9_-]{43}';

/** A new unguessable secret (API keys, webhook secrets, session cookies, CSRF tokens). */
export const newSecretToken = () => randomBytes(32).toString('base64url');

/**
 * What is stored of a secret the service hands out: its SHA-256 in hex. The secrets are 32 random
 * bytes, so a fast hash is as safe as a slow one and costs nothing per request.
 */
export const secretDigest = (secret: string) => createHash('sha256').update(secret).digest('hex');
