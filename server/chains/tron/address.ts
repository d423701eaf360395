import { createHash } from 'node:crypto';
import { decodeBase58, encodeBase58 } from '../../lib/base58';

/**
 * TRON addresses: base58check of 0x41 and the 20-byte account id, then the first 4 bytes of
 * sha256(sha256(those 21 bytes)). Base58 (`T…`) is the only form on the wire; the 20 bytes as
 * `0x` hex are what TRON's JSON-RPC, log topics and ABI words carry.
 */
const PREFIX = 0x41;

const checksumOf = (body: Uint8Array) =>
  createHash('sha256').update(createHash('sha256').update(body).digest()).digest().subarray(0, 4);

/** The 20-byte account id of a base58check address, or null (wrong length, prefix or checksum). */
function accountIdOf(value: string): Uint8Array | null {
  const bytes = decodeBase58(value);
  if (!bytes || bytes.length !== 25 || bytes[0] !== PREFIX) return null;
  const body = bytes.subarray(0, 21);
  if (!Buffer.from(checksumOf(body)).equals(Buffer.from(bytes.subarray(21)))) return null;
  return body.subarray(1);
}

/**
 * A TRON address in its one canonical form (base58check, `T…`), or null: a bad checksum, hex
 * (`41…`, `0x…`: payers would take it for an EVM address), a form that does not round-trip (leading
 * `1`s), and the all-zero account are refused.
 */
export function normalizeTronAddress(value: string): string | null {
  if (value.length !== 34 || value[0] !== 'T') return null;
  const id = accountIdOf(value);
  if (!id || id.every((b) => b === 0)) return null;
  return encodeTron(id) === value ? value : null;
}

function encodeTron(id: Uint8Array): string {
  const body = new Uint8Array(21);
  body[0] = PREFIX;
  body.set(id, 1);
  const full = new Uint8Array(25);
  full.set(body);
  full.set(checksumOf(body), 21);
  return encodeBase58(full);
}

/** The 20 bytes of a valid base58 address as lower-case `0x` hex (JSON-RPC filters, ABI words). */
export function tronToHex(address: string): `0x${string}` {
  const id = accountIdOf(address);
  if (!id) throw new Error(`not a TRON address: "${address}"`);
  return `0x${Buffer.from(id).toString('hex')}`;
}

/** The same 20 bytes as TRON's HTTP API writes them: `41` and 40 hex digits. */
export const tronToApiHex = (address: string): string => `41${tronToHex(address).slice(2)}`;

/** The base58 address of 20 bytes given as `0x…` (JSON-RPC), `41…` (HTTP API) or a 32-byte topic. */
export function hexToTron(hex: string): string {
  const digits = hex.replace(/^0x/i, '');
  const id = digits.length === 42 && digits.startsWith('41') ? digits.slice(2) : digits.slice(-40);
  if (!/^[0-9a-fA-F]{40}$/.test(id)) throw new Error(`not a 20-byte address: "${hex}"`);
  return encodeTron(Buffer.from(id, 'hex'));
}
