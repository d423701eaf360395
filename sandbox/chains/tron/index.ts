/**
 * A TRON-compatible local chain (no TRON node runs on these machines): a Hardhat 2 node with TRON
 * mainnet's chain id (0x2b6653dc) holding a USDT that behaves like TRON's (TronUsdt.sol: 6 decimals,
 * transfer() returns false on success, 0-value transferFrom open to anyone, trailing calldata
 * ignored; its code also sits at TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t) and a same-symbol fake "USDT",
 * behind a gateway that speaks TRON's interfaces with the shapes of TRON's documentation:
 *
 * - `jsonRpcUrl` (`<url>/jsonrpc`, for TRON_RPC_URL): TRON's Ethereum-style JSON-RPC, read-only
 *   (eth_sendRawTransaction / eth_sendTransaction / eth_getTransactionCount: -32601), tags latest /
 *   earliest / finalized (= head − params.solidifyLag; pending, safe: -32602), eth_getLogs with
 *   20-byte hex addresses only, at most params.maxBlockRange blocks ("exceed max block range: 5000",
 *   -32602) and params.maxLogResults logs (-32005), logsBloom zeros, "0x" block fields on unmined
 *   transactions, and TRON's ids everywhere: txIDs (0x + sha256 of raw_data) for transactions, block
 *   ids (8-byte number + 24 bytes of hash) for blocks.
 * - `url` (for TRON_API_URL): TRON's HTTP API, /wallet/* and /walletsolidity/* (solidified blocks
 *   only): getnowblock, getblockbynum, getblockbyid, getblock, gettransactionbyid,
 *   gettransactioninfobyid, triggerconstantcontract, estimateenergy, getaccount (TRX kept per address
 *   by the gateway), getaccountresource, getchainparameters, broadcasttransaction (decodes a real
 *   signed TRON transaction, checks txID, signature against owner_address, expiration and TaPoS, then
 *   runs it as the owner's 20 bytes). Errors are 200 {"Error"}, not found {}, defaults left out.
 *
 * Exported API (kept stable; the TRON adapter's tests and the sandbox use it):
 *
 *   startLocalTron({ port?, host?, blockTimeMs?, params? }): Promise<LocalTron>
 *   LocalTron = {
 *     url, jsonRpcUrl, chainId,              // gateway base (HTTP API), its /jsonrpc, 728126428
 *     usdt, usdtHex, fakeUsdt, fakeUsdtHex,  // T… and 0x forms of the USDT and the fake token
 *     params,                                // TronParams, live: solidifyLag, maxBlockRange, maxLogResults, energyFee, transactionFee, freeNetLimit
 *     evm,                                   // the LocalEvm underneath (nodeUrl, rpc, snapshot…): not TRON
 *     calls, resetCalls(),                   // requests per JSON-RPC method / HTTP path ('wallet/getnowblock')
 *     apiKeys,                               // TRON-PRO-API-KEY values received
 *     injectFault({ kind: '429'|'403'|'busy', scope?: 'jsonrpc'|'http'|'all', requests?, ms? }), clearFault(),
 *     newWallet({ trx?, usdt?, privateKey? }): TronWallet   // default 100 TRX (in sun), USDT units
 *     fundTrx(address, sun), mint(address, units, token?), trxBalance(address), tokenBalance(address, token?),
 *     buildCall({ from, contract, selector, parameter, feeLimit? }), sign(tx, wallet), broadcast(tx),
 *     transfer({ from, to, units, token?, tag?, feeLimit? }): txID    // real TRON transaction
 *     transferFrom({ from, owner, to, units, token? }): txID          // 0 units: address poisoning
 *     txInfo(txId, solidity?),                                        // gettransactioninfobyid
 *     mine(blocks?), solidify(), blockNumber(), setAutomine(on), stop()
 *   }
 *   TronWallet = { privateKey (64 hex, no 0x), address (T…), hex (0x…, the same 20 bytes) }
 *   TRON_CHAIN_ID, TRON_USDT_MAINNET, LACK_OF_RESOURCES (TronGrid's throttling words),
 *   base58Of(0x…), evmAddressOf(T… | 41…), txIdOf(rawDataHex)
 *
 * Helpers' own requests carry a header that keeps them out of `calls` and out of injected faults.
 */
export { startLocalTron, TRON_CHAIN_ID, TRON_USDT_MAINNET } from './local-tron';
export type { LocalTron, TronWallet, TransferOptions, BroadcastAnswer } from './local-tron';
export { LACK_OF_RESOURCES, type TronFault, type TronFaultKind, type TronFaultScope } from './tron-gateway';
export { DEFAULT_TRON_PARAMS, type TronParams } from './tron-context';
export { base58Of, evmAddressOf, txIdOf } from './tron-ids';
export type { TronTransaction } from './tron-state';
