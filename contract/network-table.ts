/**
 * The EVM networks the service knows, with their mainnet values. Adding another EVM network is one
 * entry here: the contract's network enum, the configuration variables (`<NETWORK>_RPC_URL` ...),
 * the chain registry and `GET /networks` all follow from this table.
 *
 * `defaultRpcUrl`: the network is on with this endpoint unless `<NETWORK>_RPC_URL` says otherwise (the spec's POLYGON and ETHEREUM);
 * the others are on when `<NETWORK>_RPC_URL` is set. A token's mainnet contract is its default
 * unless `optIn` (the spec: USDC on POLYGON and ETHEREUM only when the operator sets it).
 * Confirmations are blocks on top of the one holding a payment before it counts.
 * `nativeCoin`: what gas is paid in (x402's gas key balances are shown in it).
 * `eip3009`: the token has EIP-3009 transferWithAuthorization (Circle's USDC; not the Binance-Peg
 * one), so x402's `exact` scheme can settle it (server/x402/); its EIP-712 name and version are read
 * from the contract.
 */
export const EVM_NETWORK_TABLE = {
  POLYGON: {
    name: 'Polygon PoS',
    nativeCoin: 'POL',
    chainId: 137,
    // Reorganisations of dozens of blocks have happened; 128 is the depth exchanges have long used.
    confirmations: 128,
    defaultRpcUrl: 'https://polygon-bor-rpc.publicnode.com',
    explorer: { name: 'PolygonScan', txUrl: 'https://polygonscan.com/tx/{tx}' },
    tokens: {
      USDT: { contract: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F', decimals: 6, optIn: false },
      USDC: {
        contract: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
        decimals: 6,
        optIn: true,
        eip3009: true,
      },
    },
  },
  ETHEREUM: {
    name: 'Ethereum',
    nativeCoin: 'ETH',
    chainId: 1,
    // Since the merge no reorganisation deeper than a few blocks; 64 (two epochs) waits for finality.
    confirmations: 12,
    defaultRpcUrl: 'https://ethereum-rpc.publicnode.com',
    explorer: { name: 'Etherscan', txUrl: 'https://etherscan.io/tx/{tx}' },
    tokens: {
      USDT: { contract: '0xdAC17F958D2ee523a2206206994597C13D831ec7', decimals: 6, optIn: false },
      USDC: {
        contract: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
        decimals: 6,
        optIn: true,
        eip3009: true,
      },
    },
  },
  BASE: {
    name: 'Base',
    nativeCoin: 'ETH',
    chainId: 8453,
    // An OP Stack rollup: one sequencer, 2 s blocks; 10 blocks (20 s) covers its unsafe-head reorgs.
    confirmations: 10,
    defaultRpcUrl: null,
    explorer: { name: 'BaseScan', txUrl: 'https://basescan.org/tx/{tx}' },
    tokens: {
      USDT: { contract: '0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2', decimals: 6, optIn: false },
      USDC: {
        contract: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        decimals: 6,
        optIn: false,
        eip3009: true,
      },
    },
  },
  ARBITRUM: {
    name: 'Arbitrum One',
    nativeCoin: 'ETH',
    chainId: 42161,
    // 0.25 s blocks from one sequencer: 20 blocks is about 5 s.
    confirmations: 20,
    defaultRpcUrl: null,
    explorer: { name: 'Arbiscan', txUrl: 'https://arbiscan.io/tx/{tx}' },
    tokens: {
      USDT: { contract: '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9', decimals: 6, optIn: false },
      USDC: {
        contract: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
        decimals: 6,
        optIn: false,
        eip3009: true,
      },
    },
  },
  OPTIMISM: {
    name: 'OP Mainnet',
    nativeCoin: 'ETH',
    chainId: 10,
    confirmations: 10,
    defaultRpcUrl: null,
    explorer: { name: 'Optimistic Etherscan', txUrl: 'https://optimistic.etherscan.io/tx/{tx}' },
    tokens: {
      USDT: { contract: '0x94b008aA00579c1307B0EF2c499aD98a8ce58e58', decimals: 6, optIn: false },
      USDC: {
        contract: '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85',
        decimals: 6,
        optIn: false,
        eip3009: true,
      },
    },
  },
  BSC: {
    name: 'BNB Smart Chain',
    nativeCoin: 'BNB',
    chainId: 56,
    // Fast finality votes finalise a block about two blocks later; 15 blocks leaves a wide margin.
    confirmations: 15,
    defaultRpcUrl: null,
    explorer: { name: 'BscScan', txUrl: 'https://bscscan.com/tx/{tx}' },
    tokens: {
      // Binance-Peg tokens: 18 decimals, unlike the same tokens elsewhere.
      USDT: { contract: '0x55d398326f99059fF775485246999027B3197955', decimals: 18, optIn: false },
      USDC: { contract: '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d', decimals: 18, optIn: false },
    },
  },
  AVALANCHE: {
    name: 'Avalanche C-Chain',
    nativeCoin: 'AVAX',
    chainId: 43114,
    // Snowman consensus finalises a block once accepted; a few blocks guard against RPC lag.
    confirmations: 3,
    defaultRpcUrl: null,
    explorer: { name: 'Snowtrace', txUrl: 'https://snowtrace.io/tx/{tx}' },
    tokens: {
      USDT: { contract: '0x9702230A8Ea53601f5cD2dc00fDBc13d4dF4A8c7', decimals: 6, optIn: false },
      USDC: {
        contract: '0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E',
        decimals: 6,
        optIn: false,
        eip3009: true,
      },
    },
  },
} as const;

export type EvmNetwork = keyof typeof EVM_NETWORK_TABLE;
export const EVM_NETWORKS = Object.keys(EVM_NETWORK_TABLE) as EvmNetwork[];

/** Solana's mainnet mints (USDC is on only with USDC_MINT_SOLANA: the spec's rule). */
export const SOLANA_TOKEN_TABLE = {
  USDT: { contract: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', decimals: 6, optIn: false },
  USDC: { contract: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', decimals: 6, optIn: true },
} as const;

/** Most decimals a token may have: amounts are stored as numeric(78,0), and the wire keeps 6 places. */
export const MAX_TOKEN_DECIMALS = 36;
/** Fewest: an amount on the wire has up to 6 decimal places, which must be whole base units. */
export const MIN_TOKEN_DECIMALS = 6;

/**
 * TRON: a network family of its own (base58check addresses, TRC-20 tokens, solidified blocks).
 * USDT only: Circle stopped USDC on TRON. Chain ids as TRON's JSON-RPC (`eth_chainId`) and TIP-1193
 * wallets give them.
 */
/** A TRON address's form on the wire: base58check of 0x41 and 20 bytes, 34 characters from T (checksum not checked here). */
export const TRON_ADDRESS_FORM = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;
export const TRON_NETWORK_TABLE = {
  name: 'TRON',
  chainIds: { mainnet: 0x2b6653dc, nile: 0xcd8690dc, shasta: 0x94a9059e },
  explorers: {
    mainnet: { name: 'Tronscan', txUrl: 'https://tronscan.org/#/transaction/{tx}' },
    nile: { name: 'Tronscan (Nile)', txUrl: 'https://nile.tronscan.org/#/transaction/{tx}' },
    shasta: { name: 'Tronscan (Shasta)', txUrl: 'https://shasta.tronscan.org/#/transaction/{tx}' },
  },
  tokens: { USDT: { contract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', decimals: 6 } },
} as const;
