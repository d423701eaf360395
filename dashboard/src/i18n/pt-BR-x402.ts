import type { X402Key } from './en-x402';

/** Textos do x402 na página Desenvolvedores (ver pt-BR.ts). */
export const ptBRX402: Record<X402Key, string> = {
  scopeX402Settle: 'liquidar pagamentos x402 por chamada de API (este serviço como facilitador)',
  x402GasKeys: 'Chaves de gás do x402',
  x402GasKeysIntro:
    'Os pagamentos por API (x402) são liquidados por este serviço, que paga o gás de cada liquidação com as chaves do operador. Uma chave sem saldo recusa liquidações: nada se perde, mas a API paga deixa de receber.',
  x402GasBalance: 'Saldo',
  x402GasLeft: 'Liquidações restantes',
  x402GasAbout: 'cerca de {n}',
  x402GasOk: 'Suficiente',
  x402GasLow: 'Baixo: recarregue',
  x402GasUnknown: 'Desconhecido: a rede não respondeu',
  x402GasLowNotice:
    'Uma chave de gás paga menos de {n} liquidações: peça ao operador que a recarregue antes que pagamentos por API sejam recusados.',
};
