import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { claimProofMessage } from '../../contract/proof-messages';
import { problemOf, ReportFailure, sendReport, utf8Hex } from '../../server/checkout/client/report-request';

/** The checkout's report of a transaction (server/checkout/client/report-request.ts), without a browser. */

const REF = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const TX = `0x${'ab'.repeat(32)}`;

describe('the message an EVM wallet signs', () => {
  it('is the claim text as UTF-8 hex: personal_sign of it is the EIP-191 signature of the text', async () => {
    const message = claimProofMessage(REF, TX);
    expect(utf8Hex(message)).toBe(`0x${Buffer.from(message, 'utf8').toString('hex')}`);
    expect(utf8Hex('ação')).toBe('0x61c3a7c3a36f');
    const account = privateKeyToAccount(generatePrivateKey());
    expect(await account.signMessage({ message: { raw: utf8Hex(message) } })).toBe(
      await account.signMessage({ message }),
    );
  });
});

describe('an answer that is not 202', () => {
  it('is told apart the way the page explains it', () => {
    const details = (path: string) => ({ error: { code: 'VALIDATION_ERROR', details: [{ path }] } });
    expect(problemOf(400, details('body.txId'))).toBe('invalid');
    expect(problemOf(400, details('body.signature'))).toBe('badSignature');
    expect(problemOf(400, null)).toBe('invalid');
    expect(problemOf(409, { error: { code: 'CONFLICT' } })).toBe('conflict');
    expect(problemOf(429, {})).toBe('tooMany');
    for (const status of [404, 500, 502, 503]) expect(problemOf(status, '<html>')).toBe('failed');
  });
});

describe('sendReport', () => {
  const answer = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  it('posts the txId and the signature to the public route, and gives back the order', async () => {
    const sent: { url: string; init: RequestInit }[] = [];
    const fetchStub = (async (url: string, init: RequestInit) => {
      sent.push({ url, init });
      return answer(202, { reference: REF, status: 'CONFIRMING' });
    }) as unknown as typeof fetch;
    const info = await sendReport(fetchStub, 'https://pay.example.com', REF, { txId: TX, signature: '0x1' });
    expect(info).toMatchObject({ status: 'CONFIRMING' });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe(`https://pay.example.com/pay/${REF}/submit-tx`);
    expect(sent[0]!.init.method).toBe('POST');
    expect(JSON.parse(String(sent[0]!.init.body))).toEqual({ txId: TX, signature: '0x1' });
  });

  it('fails with the problem and the service’s words, or "failed" when no answer came', async () => {
    const refusing = (async () =>
      answer(409, {
        error: { code: 'CONFLICT', message: 'This transaction was already credited to another order' },
      })) as unknown as typeof fetch;
    const failure = await sendReport(refusing, 'https://pay.example.com', REF, { txId: TX }).catch((e) => e);
    expect(failure).toBeInstanceOf(ReportFailure);
    expect(failure).toMatchObject({
      problem: 'conflict',
      message: 'This transaction was already credited to another order',
    });

    const offline = (async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    await expect(sendReport(offline, 'https://pay.example.com', REF, { txId: TX })).rejects.toMatchObject({
      problem: 'failed',
    });
    const proxyPage = (async () =>
      new Response('<html>bad gateway</html>', { status: 502 })) as unknown as typeof fetch;
    await expect(sendReport(proxyPage, 'https://pay.example.com', REF, { txId: TX })).rejects.toMatchObject({
      problem: 'failed',
      message: 'HTTP 502',
    });
  });
});
