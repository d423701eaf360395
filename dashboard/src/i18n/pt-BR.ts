import type { MessageKey } from './en';
import { ptBRApp } from './pt-BR-app';
import { ptBROrder } from './pt-BR-order';
import { ptBRSettings } from './pt-BR-settings';
import { ptBRSubscriptions } from './pt-BR-subscriptions';
import { ptBRSandbox } from './pt-BR-sandbox';
import { ptBRTwoFactor } from './pt-BR-two-factor';
import { ptBRMembers } from './pt-BR-members';
import { ptBRPos } from './pt-BR-pos';
import { ptBRX402 } from './pt-BR-x402';
import { ptBRPayouts } from './pt-BR-payouts';

/** O painel em português do Brasil: as mesmas chaves de en.ts. */
export const ptBR: Record<MessageKey, string> = {
  ...ptBRApp,
  ...ptBROrder,
  ...ptBRSettings,
  ...ptBRSubscriptions,
  ...ptBRSandbox,
  ...ptBRTwoFactor,
  ...ptBRMembers,
  ...ptBRPos,
  ...ptBRX402,
  ...ptBRPayouts,
};
