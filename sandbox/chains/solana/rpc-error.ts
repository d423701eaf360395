/** A JSON-RPC error as the validator's RPC reports it: `{ code, message, data? }`. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }

  static invalidParams(message: string): RpcError {
    return new RpcError(-32602, message);
  }
}
