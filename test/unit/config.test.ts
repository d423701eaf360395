import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import { JOB_NAMES } from '../../server/lib/job-names';

describe('configuration', () => {
  it('has working defaults for development', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.ORDER_TTL_SECONDS).toBe(900);
    expect(config.JWT_TTL).toBe('7d');
    expect(config.POLYGON_CHAIN_ID).toBe(137);
    expect(config.ETHEREUM_CHAIN_ID).toBe(1);
    expect(config.USDC_MINT_SOLANA).toBeUndefined();
    expect(config.FX_STATIC_RATES).toEqual({ BRL: '5.25', EUR: '0.92' });
    expect(config.PUBLIC_BASE_URL).toBe('http://localhost:3000');
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
    expect(config.POLYGON_RPC_URL).toEqual(['http://a.example:8545', 'https://b.example/key']);
    expect(config.SOLANA_RPC_URL).toHaveLength(1);
    expect(config.ETHEREUM_CONFIRMATIONS).toBe(12);
    expect(config.POLYGON_CONFIRMATIONS).toBe(128);
    expect(config.EVM_LOG_RANGE).toBe(1000);
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
  it('default to a few seconds and reach every connection the service opens', async () => {
    const { connectionLimits } = await import('../../server/db/database');
    const config = loadConfig({});
    expect([
      config.DB_CONNECT_TIMEOUT_MS,
      config.DB_ACQUIRE_TIMEOUT_MS,
      config.DB_STATEMENT_TIMEOUT_MS,
    ]).toEqual([3000, 3000, 5000]);
    expect(
      connectionLimits(loadConfig({ DB_CONNECT_TIMEOUT_MS: '700', DB_STATEMENT_TIMEOUT_MS: '2000' })),
    ).toEqual({
      connectionTimeoutMillis: 700,
      statement_timeout: 2000,
      query_timeout: 3000,
      idle_in_transaction_session_timeout: 4000,
      keepAlive: true,
    });
  });
});
