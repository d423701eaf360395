import type { LocalTron } from '../../sandbox/chains/tron';

/** Requests to a local TRON chain's gateway as the service makes them (counted, faults apply). */

/** POST /wallet/… or /walletsolidity/… with a JSON body: the HTTP status and the parsed answer. */
export async function tronPost<T = Record<string, unknown>>(
  tron: LocalTron,
  path: string,
  body: unknown = {},
) {
  const res = await fetch(`${tron.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as T };
}

export type RpcReply<T> = { result?: T; error?: { code: number; message: string } };

/** One JSON-RPC call on /jsonrpc: the reply as it came (result or error). */
export async function tronRpc<T = Record<string, unknown>>(
  tron: LocalTron,
  method: string,
  params: unknown[] = [],
): Promise<RpcReply<T>> {
  const res = await fetch(tron.jsonRpcUrl, {
    method: 'POST',
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as RpcReply<T>;
}

/** The JSON-RPC shapes the tests read. */
export type RpcLog = { transactionHash: string; blockHash: string; blockNumber: string; address: string };
export type RpcReceipt = {
  transactionHash: string;
  blockHash: string;
  blockNumber: string;
  status: string;
  logsBloom: string;
  logs: RpcLog[];
};
export type RpcTx = {
  hash: string;
  input: string;
  blockHash: string;
  blockNumber: string;
  transactionIndex: string;
};
export type RpcBlock = { hash: string; number: string; transactions: string[] };
