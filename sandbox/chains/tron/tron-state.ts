import type { Address, Hex } from 'viem';
import { syntheticTxIdOf } from './tron-ids';

/**
 * What the gateway knows that Hardhat does not: each transaction's TRON form and id, the TRX each
 * address holds (TRON's balance in sun, kept beside the node's ETH, which only pays Hardhat's gas),
 * and the bandwidth each address has used of its free allowance.
 */

/** A signed TRON transaction as the HTTP API writes it (developers.tron.network/reference/gettransactionbyid). */
export type TronTransaction = {
  txID: string;
  raw_data: Record<string, unknown>;
  raw_data_hex: string;
  signature: string[];
  visible?: boolean;
};

/** What a mined transaction cost, TRON's way (gettransactioninfobyid's receipt). */
export type TronCost = { energy: bigint; energyFee: bigint; netUsage: bigint; netFee: bigint };

export type KnownTx = {
  txId: string;
  hash: Hex;
  /** null: not broadcast through the gateway (a deployment, a faucet mint): its id is made up. */
  tx: TronTransaction | null;
  /** Set once the transaction is mined and its fee charged. */
  cost: TronCost | null;
  /** Gas Hardhat was given: all of it used means TRON's OUT_OF_ENERGY. */
  gasLimit: bigint | null;
  owner: Address | null;
};

export class TronState {
  private readonly byTxId = new Map<string, KnownTx>();
  private readonly byHash = new Map<Hex, KnownTx>();
  /** TRX in sun per 20-byte address (lower case); an address with an entry exists (getaccount). */
  private readonly trx = new Map<Address, bigint>();
  private readonly created = new Map<Address, number>();
  private readonly freeNetUsed = new Map<Address, bigint>();

  add(entry: Omit<KnownTx, 'cost'>): KnownTx {
    const known: KnownTx = { ...entry, hash: entry.hash.toLowerCase() as Hex, cost: null };
    this.byTxId.set(known.txId, known);
    this.byHash.set(known.hash, known);
    return known;
  }

  hasTxId(txId: string): boolean {
    return this.byTxId.has(txId);
  }

  /** The transaction a TRON id (64 hex digits, `0x` allowed) names, if the gateway knows it. */
  byId(txId: string): KnownTx | undefined {
    return this.byTxId.get(txId.replace(/^0x/, '').toLowerCase());
  }

  /** The TRON side of a Hardhat transaction; one it never saw gets a made-up id, kept from then on. */
  ofHash(hash: Hex): KnownTx {
    const known = this.byHash.get(hash.toLowerCase() as Hex);
    if (known) return known;
    return this.add({ txId: syntheticTxIdOf(hash), hash, tx: null, gasLimit: null, owner: null });
  }

  /** Transactions broadcast and not yet charged (mined or still pending). */
  unsettled(): KnownTx[] {
    return [...this.byTxId.values()].filter((k) => k.tx !== null && k.cost === null);
  }

  exists(address: Address): boolean {
    return this.trx.has(key(address));
  }

  balance(address: Address): bigint {
    return this.trx.get(key(address)) ?? 0n;
  }

  createdAt(address: Address): number | undefined {
    return this.created.get(key(address));
  }

  /** Adds `sun` (an account is created by its first credit, as on TRON). */
  credit(address: Address, sun: bigint, now: number): void {
    if (!this.created.has(key(address))) this.created.set(key(address), now);
    this.trx.set(key(address), this.balance(address) + sun);
  }

  /** Burns up to `sun`; what the account lacks is not charged (the gateway checked it could pay). */
  burn(address: Address, sun: bigint): void {
    const balance = this.balance(address);
    this.trx.set(key(address), balance > sun ? balance - sun : 0n);
  }

  freeNet(address: Address): bigint {
    return this.freeNetUsed.get(key(address)) ?? 0n;
  }

  useFreeNet(address: Address, bytes: bigint): void {
    this.freeNetUsed.set(key(address), this.freeNet(address) + bytes);
  }
}

const key = (address: Address) => address.toLowerCase() as Address;
