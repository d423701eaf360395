import { spawn } from 'node:child_process';
import jwt from 'jsonwebtoken';
import { ROOT, TSX } from '../lib/paths';
import type { PathStack } from './stack';

const PASSWORD = 'bench-password-123';
const WALLET = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const EVM_WALLET = '0x52908400098527886E0F7030069857D2E4169EE7';
/** The EVM networks the service runs with (stack.ts): a wallet on each, for orders payable every way. */
const EVM_NETWORKS = ['POLYGON', 'ETHEREUM', 'BSC', 'BASE'] as const;

export type PathMerchant = {
  merchantId: string;
  /** The service's bearer token, as a header. */
  auth: { authorization: string };
  /** An API key of the same merchant (scope orders:read), as a header. */
  keyAuth: { authorization: string };
  /** Varied amounts as exact decimal strings, shared by the service's and the baseline's orders. */
  amount: () => string;
  /** A POST /orders body for the service. */
  orderBody: () => string;
  /** The same with `paymentOptions: "all"`. */
  everyOptionBody: () => string;
  /** The ways to pay an order of `everyOptionBody` has. */
  optionCount: number;
  /** An order made before the load, for the reads of one order and as the template of many. */
  firstReference: string;
};

/** A merchant, its token, a wallet and a first order, through the service's own tools and API. */
export async function seedMerchant(stack: PathStack): Promise<PathMerchant> {
  const email = `path-${Date.now()}@stablepay.local`;
  await createMerchantWithCli(stack.databaseUrl, email);
  const token = await logIn(stack.base, email);
  const auth = { authorization: `Bearer ${token}` };
  await postJson(stack.base, '/users/me/wallets', auth, { network: 'SOLANA', public_address: WALLET });
  for (const network of EVM_NETWORKS)
    await postJson(stack.base, '/users/me/wallets', auth, { network, public_address: EVM_WALLET });
  const amount = decimalAmounts();
  const orderBody = () => JSON.stringify({ network: 'SOLANA', token: 'USDT', amount: amount() });
  const everyOptionBody = () =>
    JSON.stringify({ network: 'SOLANA', token: 'USDT', amount: amount(), paymentOptions: 'all' });
  const first = (await (await postJson(stack.base, '/orders', auth, orderBody())).json()) as {
    reference: string;
  };
  const everyWay = (await (await postJson(stack.base, '/orders', auth, everyOptionBody())).json()) as {
    paymentOptions: unknown[];
  };
  const key = (await (
    await postJson(stack.base, '/users/me/api-keys', auth, { name: 'bench', scopes: ['orders:read'] })
  ).json()) as { secret: string };
  return {
    merchantId: String(jwt.decode(token, { json: true })?.sub),
    auth,
    keyAuth: { authorization: `Bearer ${key.secret}` },
    amount,
    orderBody,
    everyOptionBody,
    optionCount: everyWay.paymentOptions.length,
    firstReference: first.reference,
  };
}

async function createMerchantWithCli(databaseUrl: string, email: string): Promise<void> {
  const created = spawn(TSX, ['server/cli/merchant.ts', 'create', '--email', email, '--password', PASSWORD], {
    cwd: ROOT,
    stdio: 'ignore',
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
  });
  await new Promise((resolve) => created.once('exit', resolve));
}

async function logIn(base: string, email: string): Promise<string> {
  const res = await postJson(base, '/auth/login', {}, { email, password: PASSWORD });
  return ((await res.json()) as { token: string }).token;
}

/** POST of a JSON body (an object, or a string already encoded). */
function postJson(base: string, urlPath: string, headers: Record<string, string>, body: unknown) {
  return fetch(`${base}${urlPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** 1.00, 1.01, … 9000.99, then again (float division would print 1.1500000000000001). */
function decimalAmounts(): () => string {
  let cents = 0;
  return () => {
    const c = 100 + (cents++ % 900_000);
    return `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;
  };
}
