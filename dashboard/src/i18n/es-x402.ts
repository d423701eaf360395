import type { X402Key } from './en-x402';

/** Textos de x402 en la página Desarrolladores (ver es.ts). */
export const esX402: Record<X402Key, string> = {
  scopeX402Settle: 'liquidar pagos x402 por llamada a la API (este servicio como facilitador)',
  x402GasKeys: 'Claves de gas de x402',
  x402GasKeysIntro:
    'Los pagos por API (x402) los liquida este servicio, que paga el gas de cada liquidación con las claves del operador. Una clave sin fondos rechaza liquidaciones: no se pierde nada, pero la API de pago deja de cobrar.',
  x402GasBalance: 'Saldo',
  x402GasLeft: 'Liquidaciones restantes',
  x402GasAbout: 'unas {n}',
  x402GasOk: 'Suficiente',
  x402GasLow: 'Bajo: recárgala',
  x402GasUnknown: 'Desconocido: no se pudo consultar la red',
  x402GasLowNotice:
    'Una clave de gas paga menos de {n} liquidaciones: pide al operador que la recargue antes de que se rechacen pagos por API.',
};
