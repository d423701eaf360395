/** DATA_ENCRYPTION_KEY's forms: 64 hex characters, or base64 of 32 bytes. Null for anything else. */
export function decodeEncryptionKey(raw: string): Buffer | null {
  const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  return key.length === 32 ? key : null;
}
