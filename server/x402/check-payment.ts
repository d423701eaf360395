import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { getAddress, isAddress, parseUnits, type Address } from 'viem';
import type { z } from 'zod';
import type { ZX402Request } from '../../contract';
import { rpcCall } from '../chains/chain-errors';
import type { Deps } from '../deps';
import { authorizationKey } from './eip3009-authorization';
import { eip712DomainOf } from './eip712-domain';
import { evmGasKey, x402EvmNetworks, type X402EvmNetwork, type X402Token } from './x402-networks';

export type X402Request = z.infer<typeof ZX402Request>;

/** A payment this account may take, ready for @x402/evm's scheme. */
export type CheckedPayment = {
  ok: true;
  net: X402EvmNetwork;
  gasKey: `0x${string}`;
  token: X402Token;
  payTo: Address;
  walletId: string;
  payer: Address;
  amountUnits: bigint;
  /** The requirements with the token's EIP-712 name and version as the contract has them. */
  requirements: PaymentRequirements;
  payload: PaymentPayload;
  /** Unique per authorization (its token, chain, authorizer and nonce): settled once. */
  settlementKey: string;
  /** The URL paid for, when the payment names it. */
  resource: string | null;
};
export type RefusedPayment = { ok: false; reason: string; message: string; payer?: string; network: string };

type EvmAuthorization = {
  from: string;
  to: string;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: string;
};

const refuse = (network: string, reason: string, message: string, payer?: string): RefusedPayment => ({
  ok: false,
  reason,
  message,
  network,
  ...(payer ? { payer } : {}),
});

/**
 * What this service checks before @x402's scheme does (signature, time window, balance): the
 * payment is x402 v2 `exact` on a network x402 is on here, in a configured EIP-3009 token of it, to
 * one of the key's account's wallets, for at most X402_MAX_AMOUNT. Throws 503 NOT_CONFIGURED
 * without the gas key. Nothing is sent.
 */
export async function checkPayment(
  deps: Pick<Deps, 'config' | 'db'>,
  merchantId: string,
  body: X402Request,
): Promise<CheckedPayment | RefusedPayment> {
  const gasKey = evmGasKey(deps);
  const requirements = body.paymentRequirements as PaymentRequirements;
  const payload = body.paymentPayload as PaymentPayload;
  const network = requirements.network;
  const auth = (payload.payload as { authorization?: EvmAuthorization }).authorization;
  const payerText = typeof auth?.from === 'string' ? auth.from : undefined;
  const no = (reason: string, message: string) => refuse(network, reason, message, payerText);

  if (body.x402Version !== 2 || payload.x402Version !== 2)
    return no('unsupported_x402_version', 'This facilitator speaks x402 version 2');
  if (requirements.scheme !== 'exact' || payload.accepted.scheme !== 'exact')
    return no('unsupported_scheme', 'Only the `exact` scheme is settled here');
  const net = x402EvmNetworks(deps).find((n) => n.caip2 === network);
  if (!net)
    return no(
      'invalid_network',
      `x402 is not on for ${network} here (on: ${x402EvmNetworks(deps)
        .map((n) => n.caip2)
        .join(', ')})`,
    );
  if (payload.accepted.network !== network)
    return no('invalid_exact_evm_network_mismatch', 'The payment was made for another network');
  if (!isAddress(requirements.asset)) return no('invalid_asset', 'The asset is not a contract address');
  const token = net.tokens.find((t) => t.contract === getAddress(requirements.asset));
  if (!token)
    return no(
      'invalid_asset',
      `${requirements.asset} is not an EIP-3009 token configured on ${net.network} (${net.tokens.map((t) => `${t.symbol} ${t.contract}`).join(', ')})`,
    );
  if (!auth || typeof auth !== 'object' || 'permit2Authorization' in payload.payload)
    return no('unsupported_payload_type', 'Only EIP-3009 authorizations are settled here');
  if (!isAddress(auth.from) || !isAddress(auth.to) || !/^0x[0-9a-fA-F]{64}$/.test(String(auth.nonce)))
    return no('invalid_payload', 'The authorization is malformed');
  if (!isAddress(requirements.payTo)) return no('invalid_pay_to', 'payTo is not an address');
  const payTo = getAddress(requirements.payTo);
  const wallet = await deps.db.models.Wallet.findOne({
    where: { merchantId, network: net.network, publicAddress: payTo, deletedAt: null },
    attributes: ['id'],
  });
  if (!wallet)
    return no(
      'invalid_pay_to',
      `payTo ${payTo} is not one of this account's ${net.network} wallets: add it (POST /users/me/wallets) to be paid there`,
    );
  const amountUnits = BigInt(requirements.amount);
  const max = parseUnits(deps.config.x402.maxAmount, token.decimals);
  if (amountUnits <= 0n) return no('invalid_amount', 'The amount must be more than 0');
  if (amountUnits > max)
    return no(
      'amount_too_large',
      `The amount is above X402_MAX_AMOUNT (${deps.config.x402.maxAmount} ${token.symbol})`,
    );
  // The token's own domain: the client signs with the name and version the API asked; they must be the contract's.
  const domain = await rpcCall(net.network, 'eip712Domain', () => eip712DomainOf(net, token.contract));
  // @x402/evm takes a failed read of the payer's code for a bad signature: the chain unreachable
  // must be a 502 (try again), not a payment refused for good.
  await rpcCall(net.network, 'eth_getCode', () => net.client.getCode({ address: getAddress(auth.from) }));
  const extra = requirements.extra ?? {};
  for (const field of ['name', 'version'] as const)
    if (extra[field] !== undefined && extra[field] !== domain[field])
      return no(
        'invalid_exact_evm_eip712_domain',
        `extra.${field} is "${String(extra[field])}"; the token's EIP-712 ${field} is "${domain[field]}"`,
      );
  const resource = payload.resource?.url ?? null;
  return {
    ok: true,
    net,
    gasKey,
    token,
    payTo,
    walletId: wallet.id,
    payer: getAddress(auth.from),
    amountUnits,
    requirements: { ...requirements, extra: { ...extra, name: domain.name, version: domain.version } },
    payload,
    settlementKey: authorizationKey({
      caip2: net.caip2,
      token: token.contract,
      authorizer: getAddress(auth.from),
      nonce: auth.nonce as `0x${string}`,
    }),
    resource,
  };
}
