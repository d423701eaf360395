import type { MessageKey } from './en';
import { esApp } from './es-app';
import { esOrder } from './es-order';
import { esSettings } from './es-settings';
import { esSubscriptions } from './es-subscriptions';
import { esSandbox } from './es-sandbox';
import { esTwoFactor } from './es-two-factor';
import { esMembers } from './es-members';
import { esPos } from './es-pos';
import { esX402 } from './es-x402';
import { esPayouts } from './es-payouts';

/** El panel en español: las mismas claves que en.ts. */
export const es: Record<MessageKey, string> = {
  ...esApp,
  ...esOrder,
  ...esSettings,
  ...esSubscriptions,
  ...esSandbox,
  ...esTwoFactor,
  ...esMembers,
  ...esPos,
  ...esX402,
  ...esPayouts,
};
