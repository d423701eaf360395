import { x402Facilitator } from '@x402/core/facilitator';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import { ExactSvmScheme } from '@x402/svm/exact/facilitator';
import type { Keypair } from '@solana/web3.js';
import type { Deps } from '../deps';
import { facilitatorEvmSigner, type SendWatch } from './evm-signer';
import { facilitatorSvmSigner } from './svm-signer';
import { notConfigured, x402EvmNetworks, type X402EvmNetwork } from './x402-networks';
import { solanaFeePayer, x402SolanaNetwork, type X402SolanaNetwork } from './x402-solana';

// Per chain registry, as the networks it is built over (their clients call through its pools).
const verifiers = new WeakMap<Deps['chains'], x402Facilitator>();

/**
 * The payer's transaction may ask no more of the fee payer than this: two signatures (the fee
 * payer's and the payer's), a compute budget and a priority fee within these bounds (at most
 * 20,000 lamports of priority fee; @x402/svm's client asks 20,000 units at 1 micro-lamport).
 */
const SVM_LIMITS = {
  maxRequiredSignatures: 2,
  maxComputeUnits: 200_000,
  maxPriorityFeeMicroLamports: 100_000,
};

/**
 * @x402/core's facilitator with `exact` on each network x402 is on here, for /supported and
 * /verify: @x402/evm's on each EVM network with an EIP-3009 token (X402_EVM_PRIVATE_KEY), @x402/svm's
 * on Solana (X402_SOLANA_FEE_PAYER_KEY). Its signers read, check and simulate, and never send.
 * Built once per chain registry. 503 NOT_CONFIGURED without either key.
 */
export function verifyingFacilitator(deps: Pick<Deps, 'config' | 'db' | 'chains'>): x402Facilitator {
  const { evmPrivateKey, solanaFeePayerKey } = deps.config.x402;
  if (!evmPrivateKey && !solanaFeePayerKey)
    throw notConfigured('x402', 'X402_EVM_PRIVATE_KEY or X402_SOLANA_FEE_PAYER_KEY');
  let facilitator = verifiers.get(deps.chains);
  if (!facilitator) {
    facilitator = new x402Facilitator();
    if (evmPrivateKey)
      for (const net of x402EvmNetworks(deps))
        facilitator.register(net.caip2, new ExactEvmScheme(facilitatorEvmSigner(deps, net, evmPrivateKey)));
    if (solanaFeePayerKey) {
      const net = x402SolanaNetwork(deps);
      facilitator.register(
        net.caip2,
        new ExactSvmScheme(facilitatorSvmSigner(deps, net, solanaFeePayer(deps)), undefined, SVM_LIMITS),
      );
    }
    verifiers.set(deps.chains, facilitator);
  }
  return facilitator;
}

/**
 * A facilitator for one settlement on `net`: its signer sends (serialized per gas key, refused
 * above the gas price ceiling or without gas) and tells `watch` what became of the transaction.
 * The scheme checks the authorization again first, simulating the transfer (no gas spent on one
 * that would revert).
 */
export function settlingFacilitator(
  deps: Pick<Deps, 'config' | 'db' | 'chains'>,
  net: X402EvmNetwork,
  gasKey: `0x${string}`,
  watch: SendWatch,
): x402Facilitator {
  return new x402Facilitator().register(
    net.caip2,
    new ExactEvmScheme(facilitatorEvmSigner(deps, net, gasKey, watch), { simulateInSettle: true }),
  );
}

/**
 * A facilitator for one Solana settlement: @x402/svm's scheme verifies the payer's transaction
 * again (simulating it), its signer co-signs it as fee payer, records its signature, sends it and
 * tells `watch`.
 */
export function settlingSvmFacilitator(
  deps: Pick<Deps, 'config' | 'chains'>,
  net: X402SolanaNetwork,
  feePayer: Keypair,
  watch: SendWatch,
): x402Facilitator {
  return new x402Facilitator().register(
    net.caip2,
    new ExactSvmScheme(facilitatorSvmSigner(deps, net, feePayer, watch), undefined, SVM_LIMITS),
  );
}
