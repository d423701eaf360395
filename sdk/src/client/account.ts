import type { NetworkInfo } from '../../../contract';
import { segment, success, type ClientContext } from './core';
import type {
  Account,
  ChangePasswordParams,
  CreateWalletParams,
  MessengerDelivery,
  Profile,
  UpdateAccountParams,
  UpdateProfileParams,
  Wallet,
  WalletList,
  WebhookDelivery,
  WebhookSecret,
} from './types';

export interface AccountApi {
  /** GET /account: the account's name and point-of-sale settings (currency, tips). */
  get(): Promise<Account>;
  /**
   * PATCH /account: `name`, `currency` (BRL, EUR or a token), `tipPercentages` (empty: none),
   * `requireTwoFactor` (owner only); only those given change.
   */
  update(body: UpdateAccountParams): Promise<Account>;
}

export interface ProfileApi {
  /** GET /users/me. */
  get(): Promise<Profile>;
  /** PATCH /users/me: only the fields given change; null clears one. */
  update(body: UpdateProfileParams): Promise<Profile>;
  /** POST /users/me/password (never retried on 5xx or network errors). Tokens issued before stop working. */
  changePassword(body: ChangePasswordParams): Promise<void>;
  /** POST /users/me/webhook-secret: the new secret, shown only this once (never retried on 5xx). */
  rotateWebhookSecret(): Promise<WebhookSecret>;
  /**
   * POST /users/me/webhook-test: a signed `ping` event to your webhook URL now; the attempt,
   * failed or not (ConflictError without a URL or secret, or at API version 2025-01-01).
   */
  sendTestWebhook(): Promise<WebhookDelivery>;
  /** POST /users/me/messenger-test: a `ping` message to your messenger chat now; the attempt. */
  sendTestMessage(): Promise<MessengerDelivery>;
}

export interface WalletsApi {
  /** GET /users/me/wallets. */
  list(): Promise<WalletList>;
  /** POST /users/me/wallets. */
  create(body: CreateWalletParams): Promise<Wallet>;
  /** DELETE /users/me/wallets/{wallet_id} (refused with a ConflictError while open orders use it). */
  remove(walletId: string): Promise<void>;
}

export interface NetworksApi {
  /**
   * GET /networks (public): the networks this service takes payments on, each with its chain
   * id, confirmations, explorer and tokens (mint or contract, decimals).
   */
  list(): Promise<NetworkInfo[]>;
}

export function accountApi({ raw }: ClientContext): AccountApi {
  return {
    async get(): Promise<Account> {
      return success(raw.account.get());
    },
    async update(body: UpdateAccountParams): Promise<Account> {
      return success(raw.account.update({ body }));
    },
  };
}

export function profileApi({ raw }: ClientContext): ProfileApi {
  return {
    async get(): Promise<Profile> {
      return success(raw.profile.get());
    },
    async update(body: UpdateProfileParams): Promise<Profile> {
      return success(raw.profile.update({ body }));
    },
    async changePassword(body: ChangePasswordParams): Promise<void> {
      await raw.profile.changePassword({ body });
    },
    async rotateWebhookSecret(): Promise<WebhookSecret> {
      return success(raw.profile.rotateWebhookSecret());
    },
    async sendTestWebhook(): Promise<WebhookDelivery> {
      return success(raw.profile.sendTestWebhook());
    },
    async sendTestMessage(): Promise<MessengerDelivery> {
      return success(raw.profile.sendTestMessage());
    },
  };
}

export function walletsApi({ raw }: ClientContext): WalletsApi {
  return {
    async list(): Promise<WalletList> {
      return success(raw.wallets.list());
    },
    async create(body: CreateWalletParams): Promise<Wallet> {
      return success(raw.wallets.create({ body }));
    },
    async remove(walletId: string): Promise<void> {
      await raw.wallets.remove({ params: { wallet_id: segment(walletId) } });
    },
  };
}

export function networksApi({ raw }: ClientContext): NetworksApi {
  return {
    async list(): Promise<NetworkInfo[]> {
      return (await success(raw.networks.list())).items;
    },
  };
}
