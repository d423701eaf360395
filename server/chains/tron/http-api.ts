import { rpcCall } from '../chain-errors';

/**
 * TRON's HTTP API (`/wallet/*`), as java-tron and TronGrid answer it: HTTP 200 with
 * `{"Error": "…"}` is an error, `{}` is "not found", and fields at their default value are left
 * out (a successful transaction's info has no `result`). Each call is one POST with a JSON body.
 */
export type TronApi = {
  /** The answer's JSON; `{"Error"}`, a non-2xx status or bad JSON throw ChainUnavailableError. */
  post<T extends object>(path: `/wallet/${string}` | `/walletsolidity/${string}`, body: object): Promise<T>;
};

export function createTronApi(network: string, fetchFn: typeof fetch): TronApi {
  return {
    post: (path, body) =>
      rpcCall(network, path, async () => {
        const res = await fetchFn(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
        });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const answer: unknown = await res.json();
        if (typeof answer !== 'object' || answer === null || Array.isArray(answer))
          throw new Error('not a JSON object');
        if ('Error' in answer) throw new Error(String((answer as { Error: unknown }).Error).slice(0, 200));
        return answer as never;
      }),
  };
}

/** /wallet/getnowblock: the head block's header (fields TRON leaves out when zero are optional). */
export type TronBlock = {
  blockID: string;
  block_header: { raw_data: { number?: number; timestamp?: number } };
};

/** /wallet/gettransactioninfobyid: `{}` when unknown; `result: "FAILED"` only on failure. */
export type TronTransactionInfo = {
  id?: string;
  blockNumber?: number;
  blockTimeStamp?: number;
  result?: 'FAILED';
  receipt?: { result?: string; energy_usage_total?: number };
};

/** /wallet/getchainparameters: `{chainParameter: [{key, value?}]}` (a value of 0 is left out). */
export type TronChainParameters = { chainParameter?: { key: string; value?: number }[] };

/** A chain parameter by name, 0 when TRON left it out (its default). */
export const chainParameter = (params: TronChainParameters, key: string): number =>
  params.chainParameter?.find((p) => p.key === key)?.value ?? 0;

/** /wallet/getaccount: `{}` for an account that does not exist; `balance` (sun) left out when 0. */
export type TronAccount = { balance?: number };

/** /wallet/triggerconstantcontract: a dry run; `result.result` true when it ran. */
export type TronConstantCall = {
  result?: { result?: boolean; code?: string; message?: string };
  energy_used?: number;
  constant_result?: string[];
};
