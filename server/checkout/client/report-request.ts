/**
 * The payer's report of a transaction (POST /pay/{reference}/submit-tx), with the sending wallet's
 * signature as proof when there is one, and what an answer that is not 202 means for the payer.
 * No DOM here: the page's words are chosen from `problemOf`.
 */
import type { PaymentInfo } from '../page-config';

export type ReportBody = { txId: string; signature?: string; network?: string };

/** Why a report was not taken, in the terms the page explains it. */
export type ReportProblem =
  /** The txId is not one of the network's (400 on body.txId). */
  | 'invalid'
  /** The wallet's signature was refused as malformed (400 on body.signature). */
  | 'badSignature'
  /** Credited to another order, or the order can no longer be paid (409). */
  | 'conflict'
  /** The order has the most unsigned reports under check it may (429). */
  | 'tooMany'
  /** No answer, or one the payer can do nothing about but try again. */
  | 'failed';

export class ReportFailure extends Error {
  constructor(
    readonly problem: ReportProblem,
    message: string,
  ) {
    super(message);
  }
}

/** The message a wallet signs as hex, the form every EIP-1193 wallet's personal_sign takes. */
export function utf8Hex(message: string): `0x${string}` {
  const bytes = new TextEncoder().encode(message);
  return `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

type ErrorBody = { error?: { code?: unknown; message?: unknown; details?: { path?: unknown }[] } };

export function problemOf(status: number, body: unknown): ReportProblem {
  const error = (body as ErrorBody | null)?.error;
  if (status === 400) {
    const paths = Array.isArray(error?.details) ? error.details.map((d) => d?.path) : [];
    return paths.includes('body.signature') ? 'badSignature' : 'invalid';
  }
  if (status === 409) return 'conflict';
  if (status === 429) return 'tooMany';
  return 'failed';
}

/** Sends the report; the order as the payer now sees it, or a ReportFailure. */
export async function sendReport(
  fetchImpl: typeof fetch,
  origin: string,
  reference: string,
  body: ReportBody,
): Promise<PaymentInfo> {
  let res: Response;
  try {
    res = await fetchImpl(`${origin}/pay/${encodeURIComponent(reference)}/submit-tx`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    throw new ReportFailure('failed', error instanceof Error ? error.message : String(error));
  }
  const answer: unknown = await res.json().catch(() => null);
  if (res.status === 202 && answer && typeof answer === 'object') return answer as PaymentInfo;
  throw new ReportFailure(problemOf(res.status, answer), serviceMessage(res.status, answer));
}

/** The service's words on a refused call (its one error body), else the HTTP status. */
export function serviceMessage(status: number, answer: unknown): string {
  const message = (answer as ErrorBody | null)?.error?.message;
  return typeof message === 'string' ? message : `HTTP ${status}`;
}
