import { newSecretToken, SECRET_TOKEN_PATTERN, secretDigest } from '../lib/secret-token';

export const API_KEY_PREFIX = 'sk_';

/** `sk_` and 32 random bytes in base64url (43 characters): nothing else is a key. */
const API_KEY_FORMAT = new RegExp(`^${API_KEY_PREFIX}${SECRET_TOKEN_PATTERN}$`);

/** A new key's secret: shown to the merchant once, never stored. */
export const newApiKeySecret = () => `${API_KEY_PREFIX}${newSecretToken()}`;

/** What is stored and looked up: the secret's SHA-256 (hex). */
export const hashApiKeySecret = secretDigest;

export const isApiKeySecret = (token: string) => API_KEY_FORMAT.test(token);

/** Whether a bearer credential is meant as an API key (and not a login token). */
export const looksLikeApiKey = (token: string) => token.startsWith(API_KEY_PREFIX);
