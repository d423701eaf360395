import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { getAddress, isAddress } from 'viem';
import { rpcCall } from '../chains/chain-errors';
import type { Deps } from '../deps';
import { authorizationKey } from './eip3009-authorization';
import { eip712DomainOf } from './eip712-domain';
import {
  refuse,
  versionAndScheme,
  walletAndAmount,
  type CheckedPayment,
  type RefusedPayment,
  type X402Request,
} from './payment-rules';
import { settlingFacilitator } from './x402-facilitator';
import { evmGasKey, x402EvmNetworks } from './x402-networks';

/** Seconds since 1970 (a uint256) as a time; null beyond what PostgreSQL keeps (never invalid, then). */
const timeOf = (seconds: string) => {
  if (!/^\d{1,78}$/.test(String(seconds))) return null;
  const n = BigInt(seconds);
  return n < 200_000_000_000n ? new Date(Number(n) * 1000) : null;
};

type EvmAuthorization = {
  from: string;
  to: string;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: string;
};

/**
 * What this service checks before @x402's scheme does (signature, time window, balance): the
 * payment is x402 v2 `exact` on a network x402 is on here, in a configured EIP-3009 token of it, to
 * one of the key's account's wallets, for at most X402_MAX_AMOUNT. Throws 503 NOT_CONFIGURED
 * without the gas key. Nothing is sent.
 */
export async function checkEvmPayment(
  deps: Pick<Deps, 'config' | 'db' | 'chains'>,
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
  const unsupported = versionAndScheme(body);
  if (unsupported) return no(unsupported.reason, unsupported.message);
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
  const amountUnits = BigInt(requirements.amount);
  const taken = await walletAndAmount(deps, merchantId, {
    network: net.network,
    payTo,
    amountUnits,
    symbol: token.symbol,
    decimals: token.decimals,
  });
  if (!('walletId' in taken)) return no(taken.reason, taken.message);
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
    network: net.network,
    caip2: net.caip2,
    asset: token.contract,
    symbol: token.symbol,
    decimals: token.decimals,
    payTo,
    walletId: taken.walletId,
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
    validBefore: timeOf(auth.validBefore),
    settler: (watch) => settlingFacilitator(deps, net, gasKey, watch),
  };
}
