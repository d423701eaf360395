import { createHash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'sk_';

/** `sk_` and 32 random bytes in base64url (43 characters): nothing else is a key. */
const API_KEY_FORMAT = /^sk_[A-Za-z0-9_-]{43}$/;

/** A new key's secret: shown to the merchant once, never stored. */
export const newApiKeySecret = () => `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;

/** What is stored and looked up: the secret's SHA-256 (hex). */
export const hashApiKeySecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

export const isApiKeySecret = (token: string) => API_KEY_FORMAT.test(token);

/** Whether a bearer credential is meant as an API key (and not a login token). */
export const looksLikeApiKey = (token: string) => token.startsWith(API_KEY_PREFIX);
