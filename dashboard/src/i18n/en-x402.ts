/** English texts of x402's part of the Developers page (see en.ts). */
export const enX402 = {
  scopeX402Settle: 'settle x402 payments per API call (this service as facilitator)',
  x402GasKeys: 'x402 gas keys',
  x402GasKeysIntro:
    "API payments (x402) are settled by this service, which pays each settlement's gas with the operator's keys. A key that cannot pay refuses settlements: nothing is lost, but the paid API stops being paid.",
  x402GasBalance: 'Balance',
  x402GasLeft: 'Settlements left',
  x402GasAbout: 'about {n}',
  x402GasOk: 'Enough',
  x402GasLow: 'Low: fund it',
  x402GasUnknown: 'Unknown: the network could not be reached',
  x402GasLowNotice:
    'A gas key pays for fewer than {n} settlements: ask the operator to fund it before API payments are refused.',
} as const;

export type X402Key = keyof typeof enX402;
