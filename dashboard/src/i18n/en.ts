import { enApp } from './en-app';
import { enOrder } from './en-order';
import { enSettings } from './en-settings';
import { enSubscriptions } from './en-subscriptions';
import { enSandbox } from './en-sandbox';
import { enTwoFactor } from './en-two-factor';
import { enMembers } from './en-members';
import { enPos } from './en-pos';
import { enX402 } from './en-x402';
import { enPayouts } from './en-payouts';

/**
 * The dashboard's words in English: the reference every other language must match key for key
 * (pt-BR.ts and es.ts are typed against it). `{name}` marks a value filled in at run time.
 */
export const en = {
  ...enApp,
  ...enOrder,
  ...enSettings,
  ...enSubscriptions,
  ...enSandbox,
  ...enTwoFactor,
  ...enMembers,
  ...enPos,
  ...enX402,
  ...enPayouts,
} as const;

export type MessageKey = keyof typeof en;
