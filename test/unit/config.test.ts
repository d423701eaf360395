import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import { JOB_NAMES } from '../../server/lib/job-names';

describe('configuration', () => {
  it('has working defaults for development', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.ORDER_TTL_SECONDS).toBe(900);
    expect(config.JWT_TTL).toBe('7d');
    // The spec's networks: POLYGON and ETHEREUM on with USDT only; Solana's USDC only with its mint.
    expect(config.evmNetworks.map((n) => [n.network, n.chainId, n.tokens.map((t) => t.token)])).toEqual([
      ['POLYGON', 137, ['USDT']],
      ['ETHEREUM', 1, ['USDT']],
    ]);
    expect(config.solanaTokens.map((t) => t.token)).toEqual(['USDT']);
    expect(config.FX_STATIC_RATES).toEqual({ BRL: '5.25', EUR: '0.92' });
    expect(config.PUBLIC_BASE_URL).toBe('http://localhost:3000');
    expect(config.DASHBOARD_SESSION_MAX_HOURS).toBe(12);
  });

  it('has no secret of its own: unset, they are left to the generated DATA_DIR/secrets.json', () => {
    for (const NODE_ENV of ['development', 'test'] as const) {
      const config = loadConfig({ NODE_ENV });
      expect(config.JWT_SECRET).toBeUndefined();
      expect(config.encryptionKey).toBeUndefined();
    }
    expect(loadConfig({ DATA_ENCRYPTION_KEY: 'ab'.repeat(32) }).encryptionKey).toEqual(
      Buffer.alloc(32, 0xab),
    );
  });

  it('refuses private webhook destinations unless WEBHOOK_ALLOW_PRIVATE=true, whatever NODE_ENV says', () => {
    for (const NODE_ENV of ['development', 'test', 'production'] as const) {
      const env = { NODE_ENV, JWT_SECRET: 'x'.repeat(40), DATA_ENCRYPTION_KEY: 'a'.repeat(64) };
      const withDb = { ...env, DATABASE_URL: 'postgres://db/stablepay' };
      expect(loadConfig(withDb).webhookAllowPrivate).toBe(false);
      expect(loadConfig({ ...withDb, WEBHOOK_ALLOW_PRIVATE: 'false' }).webhookAllowPrivate).toBe(false);
      expect(loadConfig({ ...withDb, WEBHOOK_ALLOW_PRIVATE: 'true' }).webhookAllowPrivate).toBe(true);
    }
  });

  it('mails customers only with SMTP_URL, which needs MAIL_FROM', () => {
    expect(loadConfig({}).mail).toBeNull();
    expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example.com:587' })).toThrow(
      /MAIL_FROM: is required when SMTP_URL is set/,
    );
    expect(() => loadConfig({ SMTP_URL: 'https://mail.example.com', MAIL_FROM: 'a@example.com' })).toThrow(
      /SMTP_URL: must be an smtp/,
    );
    const config = loadConfig({
      SMTP_URL: 'smtps://u:p@mail.example.com:465',
      MAIL_FROM: 'Pay <a@example.com>',
    });
    expect(config.mail).toEqual({ url: 'smtps://u:p@mail.example.com:465', from: 'Pay <a@example.com>' });
    expect(config.SMTP_TIMEOUT_MS).toBe(10_000);
  });

  it('refuses to start in production without JWT_SECRET, naming it', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_ENCRYPTION_KEY: 'a'.repeat(64) })).toThrow(
      /JWT_SECRET/,
    );
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40) })).toThrow(
      /DATA_ENCRYPTION_KEY/,
    );
    expect(
      loadConfig({
        NODE_ENV: 'production',
        JWT_SECRET: 'x'.repeat(40),
        DATA_ENCRYPTION_KEY: 'a'.repeat(64),
        DATABASE_URL: 'postgres://db/stablepay',
      }).NODE_ENV,
    ).toBe('production');
  });

  it('shortened subscription days are for tests and the sandbox: refused in production', () => {
    const production = {
      NODE_ENV: 'production',
      JWT_SECRET: 'x'.repeat(40),
      DATA_ENCRYPTION_KEY: 'a'.repeat(64),
      DATABASE_URL: 'postgres://db/stablepay',
    };
    expect(() => loadConfig({ ...production, SUBSCRIPTION_DAY_SECONDS: '2' })).toThrow(
      /SUBSCRIPTION_DAY_SECONDS/,
    );
    expect(loadConfig({ ...production, SUBSCRIPTION_DAY_SECONDS: '86400' }).SUBSCRIPTION_DAY_SECONDS).toBe(
      86400,
    );
    expect(loadConfig({ SUBSCRIPTION_DAY_SECONDS: '2' }).SUBSCRIPTION_DAY_SECONDS).toBe(2);
  });

  it.each([
    ['PORT', 'abc'],
    ['DATABASE_URL', 'mysql://x'],
    ['JWT_TTL', 'seven days'],
    ['JWT_SECRET', 'short'],
    ['ORDER_TTL_SECONDS', '10'],
    ['FX_PROVIDER', 'yahoo'],
    ['FX_STATIC_RATES', 'BRL=5'],
    ['SOLANA_RPC_URL', 'not a url'],
    ['POLYGON_RPC_URL', 'http://ok.example,not a url'],
    ['ETHEREUM_RPC_URL', ' , '],
    ['ETHEREUM_CONFIRMATIONS', '-1'],
    ['EVM_LOG_RANGE', '0'],
    ['JOBS', 'deliver-events,mine-bitcoin'],
    ['JOBS', 'all,none'],
    ['DATA_ENCRYPTION_KEY', 'too-short'],
    ['DB_CONNECT_TIMEOUT_MS', 'soon'],
    ['DB_ACQUIRE_TIMEOUT_MS', '0'],
    ['DB_STATEMENT_TIMEOUT_MS', '-5'],
    ['READY_TIMEOUT_MS', '1e9'],
    ['DASHBOARD_SESSION_MAX_HOURS', '0'],
    ['WEBHOOK_ALLOW_PRIVATE', 'yes'],
  ])('a bad %s stops start-up with a message naming it', (name, value) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(name);
  });

  it('needs a static rate for every quote currency, with the static feed', () => {
    expect(() => loadConfig({ FX_PROVIDER: 'static', QUOTE_CURRENCIES: 'BRL,EUR,GBP' })).toThrow(/GBP/);
    expect(
      loadConfig({ FX_PROVIDER: 'static', QUOTE_CURRENCIES: 'BRL,GBP', FX_STATIC_RATES: 'BRL:5,GBP:0.8' })
        .QUOTE_CURRENCIES,
    ).toEqual(['BRL', 'GBP']);
  });

  it('prices quotes with a live feed by default, a second live feed as fallback', () => {
    const config = loadConfig({});
    expect([config.FX_PROVIDER, config.FX_FALLBACK_PROVIDER]).toEqual(['coinbase', 'frankfurter']);
    expect(loadConfig({ QUOTE_CURRENCIES: 'BRL,GBP' }).QUOTE_CURRENCIES).toEqual(['BRL', 'GBP']);
  });

  it('reads RPC endpoint lists in order, and documented confirmation defaults', () => {
    const config = loadConfig({ POLYGON_RPC_URL: ' http://a.example:8545 , https://b.example/key ' });
    const network = (name: string) => config.evmNetworks.find((n) => n.network === name)!;
    expect(network('POLYGON').rpcUrls).toEqual(['http://a.example:8545', 'https://b.example/key']);
    expect(config.SOLANA_RPC_URL).toHaveLength(1);
    expect(network('ETHEREUM').confirmations).toBe(12);
    expect(network('POLYGON').confirmations).toBe(128);
    expect(config.EVM_LOG_RANGE).toBe(1000);
  });

  it('derives Solana websocket endpoints from the RPC URLs as web3.js does, or takes them, or none', () => {
    const derived = loadConfig({ SOLANA_RPC_URL: 'http://127.0.0.1:8899,https://rpc.example.com/key/abc' });
    expect(derived.solanaWsUrls).toEqual(['ws://127.0.0.1:8900', 'wss://rpc.example.com/key/abc']);
    expect(loadConfig({}).solanaWsUrls).toEqual(['wss://api.mainnet-beta.solana.com']);
    expect(loadConfig({ SOLANA_WS_URL: 'wss://a.example, ws://b.example:9' }).solanaWsUrls).toEqual([
      'wss://a.example',
      'ws://b.example:9',
    ]);
    expect(loadConfig({ SOLANA_WS_URL: 'none' }).solanaWsUrls).toEqual([]);
    expect(() => loadConfig({ SOLANA_WS_URL: 'https://a.example' })).toThrow(/SOLANA_WS_URL/);
  });

  it('JOBS picks what an instance runs: all, none (API only), or a list', () => {
    const all = [...JOB_NAMES];
    expect(all).toEqual(
      expect.arrayContaining(['deliver-events', 'expire-orders', 'verify-payments', 'scan-payments']),
    );
    expect([...loadConfig({}).jobs].sort()).toEqual([...all].sort());
    expect([...loadConfig({ JOBS: 'all' }).jobs].sort()).toEqual([...all].sort());
    expect(loadConfig({ JOBS: 'none' }).jobs.size).toBe(0);
    expect([...loadConfig({ JOBS: ' scan-payments , deliver-events ' }).jobs]).toEqual([
      'scan-payments',
      'deliver-events',
    ]);
    expect(loadConfig({ JOBS_ENABLED: 'false' }).jobs.size).toBe(0); // the older spelling
  });
});

describe('bounded waits on the database', () => {
  it('default to a wait for a connection and one statement within 5 s, and reach every connection the service opens', async () => {
    const { connectionLimits } = await import('../../server/db/database');
    const config = loadConfig({});
    expect([
      config.DB_CONNECT_TIMEOUT_MS,
      config.DB_ACQUIRE_TIMEOUT_MS,
      config.DB_STATEMENT_TIMEOUT_MS,
    ]).toEqual([2000, 1000, 3000]);
    expect(
      connectionLimits(loadConfig({ DB_CONNECT_TIMEOUT_MS: '700', DB_STATEMENT_TIMEOUT_MS: '2000' })),
    ).toEqual({
      connectionTimeoutMillis: 700,
      statement_timeout: 2000,
      query_timeout: 2500,
      idle_in_transaction_session_timeout: 4000,
      keepAlive: true,
    });
  });
});

describe('networks by configuration', () => {
  const on = (env: Record<string, string>) =>
    Object.fromEntries(loadConfig(env).evmNetworks.map((n) => [n.network, n]));

  it('turns an EVM network on with its RPC URL, at its mainnet chain id, tokens and decimals', () => {
    const networks = on({ BSC_RPC_URL: 'http://bsc.example', BASE_RPC_URL: 'http://base.example' });
    expect(Object.keys(networks)).toEqual(['POLYGON', 'ETHEREUM', 'BASE', 'BSC']);
    expect(networks.BSC).toMatchObject({ chainId: 56, confirmations: 15, explorerTxUrl: null });
    expect(networks.BSC!.tokens).toEqual([
      { token: 'USDT', contract: '0x55d398326f99059fF775485246999027B3197955', decimals: 18 },
      { token: 'USDC', contract: '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d', decimals: 18 },
    ]);
    expect(networks.BASE!.tokens.map((t) => [t.token, t.decimals])).toEqual([
      ['USDT', 6],
      ['USDC', 6],
    ]);
  });

  it('takes every setting from the environment, and none turns a network or a token off', () => {
    const networks = on({
      POLYGON_RPC_URL: 'none',
      BSC_RPC_URL: 'http://a.example,http://b.example',
      BSC_CHAIN_ID: '97',
      BSC_CONFIRMATIONS: '4',
      BSC_EXPLORER_URL: 'https://testnet.bscscan.com/tx/{tx}',
      USDT_CONTRACT_BSC: '0x52908400098527886e0f7030069857d2e4169ee7',
      USDT_DECIMALS_BSC: '6',
      USDC_CONTRACT_BSC: 'none',
      USDC_CONTRACT_ETHEREUM: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    });
    expect(Object.keys(networks)).toEqual(['ETHEREUM', 'BSC']);
    expect(networks.BSC).toMatchObject({
      rpcUrls: ['http://a.example', 'http://b.example'],
      chainId: 97,
      confirmations: 4,
      explorerTxUrl: 'https://testnet.bscscan.com/tx/{tx}',
      tokens: [{ token: 'USDT', contract: '0x52908400098527886e0f7030069857d2e4169ee7', decimals: 6 }],
    });
    // The spec's extension: USDC on ETHEREUM only when the operator names its contract.
    expect(networks.ETHEREUM!.tokens.map((t) => t.token)).toEqual(['USDT', 'USDC']);
  });

  it('refuses bad network settings at start-up, naming the variable', () => {
    expect(() => loadConfig({ BASE_RPC_URL: 'not a url' })).toThrow(/BASE_RPC_URL/);
    expect(() => loadConfig({ BSC_RPC_URL: 'http://a', USDT_CONTRACT_BSC: '0x123' })).toThrow(
      /USDT_CONTRACT_BSC: must be a 0x contract address/,
    );
    expect(() =>
      loadConfig({ BSC_RPC_URL: 'http://a', USDT_CONTRACT_BSC: 'none', USDC_CONTRACT_BSC: 'none' }),
    ).toThrow(/BSC_RPC_URL: turns BSC on, but no token is/);
    expect(() => loadConfig({ USDT_DECIMALS_BSC: '4' })).toThrow(/USDT_DECIMALS_BSC: at least 6/);
    expect(() => loadConfig({ BASE_EXPLORER_URL: 'https://basescan.org/tx/' })).toThrow(/must hold \{tx\}/);
  });

  it('turns TRON on with TRON_RPC_URL: its HTTP API beside the JSON-RPC by default, mainnet USDT, solidified', () => {
    expect(loadConfig({}).tron).toBeNull();
    expect(loadConfig({ TRON_RPC_URL: 'none' }).tron).toBeNull();
    expect(
      loadConfig({ TRON_RPC_URL: 'https://api.trongrid.io/jsonrpc,http://node:8545/jsonrpc/' }).tron,
    ).toEqual({
      rpcUrls: ['https://api.trongrid.io/jsonrpc', 'http://node:8545/jsonrpc/'],
      apiUrls: ['https://api.trongrid.io', 'http://node:8545'],
      apiKey: null,
      chainId: 0x2b6653dc,
      confirmations: 0,
      rpcMaxRps: null,
      tokens: [{ token: 'USDT', contract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', decimals: 6 }],
    });
    const nile = loadConfig({
      TRON_RPC_URL: 'http://a/jsonrpc',
      TRON_API_URL: 'http://b:8090',
      TRON_API_KEY: 'k',
      TRON_CHAIN_ID: '0xcd8690dc',
      TRON_CONFIRMATIONS: '2',
    }).tron;
    expect(nile).toMatchObject({
      apiUrls: ['http://b:8090'],
      apiKey: 'k',
      chainId: 0xcd8690dc,
      confirmations: 2,
    });
    expect(() =>
      loadConfig({
        TRON_RPC_URL: 'http://a',
        USDT_CONTRACT_TRON: '41a614f803b6fd780986a42c78ec9c7f77e6ded13c',
      }),
    ).toThrow(/USDT_CONTRACT_TRON: must be a base58 TRON address/);
  });
});
