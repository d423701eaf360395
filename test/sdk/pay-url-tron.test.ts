import { describe, expect, expectTypeOf, it } from 'vitest';
import { createPayer, EvmPaymentError } from '../../sdk/src/payer';
import {
  NETWORKS,
  parsePayUrl,
  PayUrlError,
  TRON_NETWORK_TABLE,
  type Network,
  type PayUrl,
  type Refund,
  type TronEstimatedCost,
} from '../../sdk/src';

/** TRON in the SDK: its pay links parse, its types come from the service's contract. */

const USDT = TRON_NETWORK_TABLE.tokens.USDT.contract;
const PAYER = 'TJDP1o7nFkDLQqweetoFRfM4R2zaFuo5vG';

describe('parsePayUrl: TRON', () => {
  it("parses a tron: URI (payUrl) and TRON's bare-address QR code (qrData)", () => {
    expect(parsePayUrl(`tron:${PAYER}?amount=3.500000`)).toEqual({
      kind: 'tron-transfer',
      network: 'TRON',
      recipient: PAYER,
      amount: '3.5',
    } satisfies PayUrl);
    expect(parsePayUrl(`TRON:${USDT}`)).toEqual({
      kind: 'tron-transfer',
      network: 'TRON',
      recipient: USDT,
      amount: null,
    });
    expect(parsePayUrl(` ${PAYER} `)).toEqual({
      kind: 'tron-transfer',
      network: 'TRON',
      recipient: PAYER,
      amount: null,
    });
  });

  it('refuses hex addresses, short ones, bad amounts and a repeated amount, in words', () => {
    for (const url of [
      'tron:41a614f803b6fd780986a42c78ec9c7f77e6ded13c?amount=1',
      'tron:0xa614f803b6fd780986a42c78ec9c7f77e6ded13c',
      `tron:${PAYER.slice(0, -1)}?amount=1`,
      `tron:${PAYER}?amount=-1`,
      `tron:${PAYER}?amount=1e6`,
      `tron:${PAYER}?amount=1&amount=2`,
      PAYER.replace(/^T/, 'A'),
    ]) {
      expect(() => parsePayUrl(url), url).toThrow(PayUrlError);
      expect(() => parsePayUrl(url), url).toThrow(/^Not a valid payment URI/);
    }
    expect(() => parsePayUrl('bitcoin:1abc')).toThrow(/solana:, ethereum: or tron:/);
  });
});

describe('the EVM payer helper given a TRON account', () => {
  it('says it pays EVM orders only, before asking the service anything', async () => {
    let asked = 0;
    const payer = createPayer({
      baseUrl: 'http://127.0.0.1:9',
      fetch: async () => {
        asked++;
        throw new Error('not to be asked');
      },
    });
    const request = payer.requestEvmTransaction({ reference: 'ref', account: PAYER });
    await expect(request).rejects.toThrow(EvmPaymentError);
    await expect(request).rejects.toThrow(`account ${PAYER} is a TRON address`);
    expect(asked).toBe(0);
  });
});

describe('TRON in the SDK types', () => {
  it("knows TRON as a network, and a TRON refund's transaction with its estimated cost", () => {
    expect(NETWORKS).toContain('TRON');
    expectTypeOf<'TRON'>().toMatchTypeOf<Network>();
    type Transaction = NonNullable<Refund['transaction']>;
    type TronTransaction = Extract<Transaction, { estimatedCost: unknown }>;
    expectTypeOf<TronTransaction['estimatedCost']>().toEqualTypeOf<TronEstimatedCost>();
    expectTypeOf<TronEstimatedCost>().toEqualTypeOf<{
      energy: number;
      bandwidth: number;
      trx: string;
      trxBalance: string;
      covered: boolean;
    }>();
    expectTypeOf<TronTransaction['transaction']['txID']>().toEqualTypeOf<string>();
  });
});
