import type { TxRecord } from './ledger-records';

/**
 * The ledger's processed transactions as a validator's RPC finds them: by signature, by slot, by
 * the accounts they touch (newest last), and those not yet finalized.
 */
export class TxIndex {
  private readonly records = new Map<string, TxRecord>();
  private readonly bySlot = new Map<number, TxRecord>();
  private readonly byAddress = new Map<string, TxRecord[]>();
  private readonly pendingFinality: TxRecord[] = [];

  /** Keeps a processed transaction under each account key it names. */
  add(record: TxRecord): void {
    this.records.set(record.signature, record);
    this.bySlot.set(record.slot, record);
    for (const key of new Set(record.accountKeys)) {
      let list = this.byAddress.get(key);
      if (!list) this.byAddress.set(key, (list = []));
      list.push(record);
    }
    if (!record.finalized) this.pendingFinality.push(record);
  }

  get(signature: string): TxRecord | null {
    return this.records.get(signature) ?? null;
  }

  atSlot(slot: number): TxRecord | null {
    return this.bySlot.get(slot) ?? null;
  }

  /** The transactions still waiting to be finalized, taken out of the waiting list. */
  takePendingFinality(): TxRecord[] {
    return this.pendingFinality.splice(0);
  }

  /** Newest first, as getSignaturesForAddress; `before`/`until` exclusive. */
  signaturesForAddress(
    key: string,
    opts: { limit: number; before?: string; until?: string; finalizedOnly: boolean },
  ): TxRecord[] {
    const list = this.byAddress.get(key) ?? [];
    let beforeSeq = Infinity;
    if (opts.before !== undefined) {
      const before = this.records.get(opts.before);
      if (!before) return [];
      beforeSeq = before.seq;
    }
    const untilSeq = (opts.until !== undefined && this.records.get(opts.until)?.seq) || 0;
    const out: TxRecord[] = [];
    for (let i = list.length - 1; i >= 0 && out.length < opts.limit; i--) {
      const record = list[i]!;
      if (record.seq >= beforeSeq) continue;
      if (record.seq <= untilSeq) break;
      if (opts.finalizedOnly && !record.finalized) continue;
      out.push(record);
    }
    return out;
  }
}
