import { Keypair, PublicKey } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTestHeader } from '../../sdk/src/webhooks';
import { startLocalSolana, type LocalSolana } from '../../sandbox/chains/solana/local-solana';
import { runScript, type Script } from '../support/run-script';
import { newMerchant, startTestServer, type TestServer } from '../support/test-server';
import { freePort } from '../support/free-port';

let chain: LocalSolana;
let server: TestServer;
const scripts: Script[] = [];
const run = (...args: Parameters<typeof runScript>) => {
  const script = runScript(...args);
  scripts.push(script);
  return script;
};

beforeAll(async () => {
  chain = await startLocalSolana();
  const usdt = await chain.createMint();
  server = await startTestServer({
    SOLANA_RPC_URL: chain.url,
    USDT_MINT_SOLANA: usdt.toBase58(),
    WEBHOOK_ALLOW_PRIVATE: 'true',
    JOB_DELIVER_EVENTS_CRON: '* * * * * *',
    JOB_VERIFY_PAYMENTS_CRON: '* * * * * *',
    JOB_VERIFY_REFUNDS_CRON: '* * * * * *',
    WEBHOOK_RETRY_BASE_MS: '500',
  });
});
afterAll(async () => {
  scripts.forEach((s) => s.child.kill('SIGKILL'));
  await server?.stop();
  await chain?.stop();
});

describe('examples/ against a live local stack', () => {
  it('create-order, webhook-receiver-express and pay-as-payer-solana work together', async () => {
    const m = await newMerchant(server);
    const shop = Keypair.generate();
    await server.api('POST', '/users/me/wallets', {
      token: m.token,
      body: { network: 'SOLANA', public_address: shop.publicKey.toBase58() },
    });
    const secret = (await server.api('POST', '/users/me/webhook-secret', { token: m.token })).body
      .webhook_secret;

    // The merchant's webhook receiver, verifying signatures with the SDK.
    const port = await freePort();
    const receiver = run('examples/webhook-receiver-express.ts', [], {
      STABLEPAY_WEBHOOK_SECRET: secret,
      PORT: String(port),
    });
    await receiver.waitFor(/listening on/);
    const hookUrl = `http://127.0.0.1:${port}/webhooks/stablepay`;
    await server.api('PATCH', '/users/me', { token: m.token, body: { webhook_url: hookUrl } });

    // The merchant creates an order (logging in with e-mail and password).
    const create = run('examples/create-order.ts', [], {
      STABLEPAY_URL: server.url,
      STABLEPAY_EMAIL: m.email,
      STABLEPAY_PASSWORD: 'correct horse battery staple',
      QUOTE_AMOUNT: '10.50',
    });
    expect(await create.exited, create.output()).toBe(0);
    const reference = create.output().match(/reference\s+(\w+)/)![1]!;
    expect(create.output()).toMatch(/amount\s+2\.000000 USDT \(10\.50 BRL, 1 USDT = 5\.250000 BRL\)/);
    await receiver.waitFor(new RegExp(`verified order\\.created ${reference} PENDING`));

    // The payer pays it through the public routes, signing with their own key.
    const mint = new PublicKey(server.config.USDT_MINT_SOLANA);
    const payer = await chain.newPayer({ mint, units: 5_000_000n });
    const pay = run('examples/pay-as-payer-solana.ts', [], {
      STABLEPAY_URL: server.url,
      ORDER_REFERENCE: reference,
      SOLANA_RPC_URL: chain.url,
      PAYER_SECRET_KEY: JSON.stringify([...payer.secretKey]),
    });
    expect(await pay.exited, pay.output()).toBe(0);
    expect(pay.output()).toMatch(/status\s+PAID/);
    expect(pay.output()).toContain(`paid        2.000000 USDT to ${shop.publicKey.toBase58()}`);
    expect(await chain.tokenBalance(shop.publicKey, mint)).toBe(2_000_000n);

    await receiver.waitFor(new RegExp(`verified order\\.paid ${reference} PAID 2\\.000000/2\\.000000 USDT`));

    // A forged webhook is refused; a correctly signed test event is accepted.
    const body = JSON.stringify({
      id: 'evt_forged',
      type: 'order.paid',
      createdAt: new Date().toISOString(),
      data: { order: { reference } },
    });
    const forged = await fetch(hookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-webhook-signature': generateTestHeader({ payload: body, secret: 'whsec_wrong' }),
      },
      body,
    });
    expect(forged.status).toBe(400);
    await receiver.waitFor(/rejected: /);
  }, 120_000);

  it('refund-order shows the ledger, then creates, signs, sends and verifies a refund', async () => {
    const m = await newMerchant(server);
    const shop = Keypair.generate();
    await chain.fundSol(shop.publicKey);
    await server.api('POST', '/users/me/wallets', {
      token: m.token,
      body: { network: 'SOLANA', public_address: shop.publicKey.toBase58() },
    });
    const mint = new PublicKey(server.config.USDT_MINT_SOLANA);
    const order = await server.api('POST', '/orders', {
      token: m.token,
      body: { network: 'SOLANA', token: 'USDT', amount: '3' },
    });
    const reference = order.body.reference as string;
    const payer = await chain.newPayer({ mint, units: 5_000_000n });
    const txId = await chain.transfer({
      payer,
      recipientOwner: shop.publicKey,
      mint,
      amountUnits: 3_000_000n,
      reference: new PublicKey(reference),
    });
    await server.api('POST', `/pay/${reference}/submit-tx`, { body: { txId } });
    for (let i = 0; i < 100; i++) {
      const got = await server.api('GET', `/orders/${reference}`, { token: m.token });
      if (got.body.status === 'PAID') break;
      await new Promise((r) => setTimeout(r, 200));
    }

    const refund = run('examples/refund-order.ts', [], {
      STABLEPAY_URL: server.url,
      STABLEPAY_EMAIL: m.email,
      STABLEPAY_PASSWORD: 'correct horse battery staple',
      ORDER_REFERENCE: reference,
      REFUND_AMOUNT: '1.25',
      REFUND_TO: payer.publicKey.toBase58(),
      REFUND_REASON: 'Damaged item',
      SOLANA_RPC_URL: chain.url,
      MERCHANT_SECRET_KEY: JSON.stringify([...shop.secretKey]),
      WAIT_MS: '60000',
    });
    expect(await refund.exited, refund.output()).toBe(0);
    const out = refund.output();
    expect(out).toContain(`payment     3.000000 USDT from ${payer.publicKey.toBase58()} (tag) ${txId}`);
    expect(out).toMatch(/refund\s+rf_[0-9a-f]{32} PENDING 1\.250000 USDT/);
    expect(out).toMatch(/status\s+SUCCEEDED/);
    expect(out).toMatch(/refunded\s+1\.250000 USDT/);
    expect(await chain.tokenBalance(payer.publicKey, mint)).toBe(2_000_000n + 1_250_000n);
  }, 120_000);
});
