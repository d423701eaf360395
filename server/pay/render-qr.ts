import QRCode, { type QRCodeErrorCorrectionLevel } from 'qrcode';
import type { Deps } from '../deps';
import { findPublicOrder } from '../orders/find-public-order';
import { paymentLinks } from '../orders/present-order';
import { pickOption, type OptionPick } from '../orders/payment-options';

const MARGIN = 2;

/** Display-only parameters of a Solana Pay URI: a wallet makes the same payment without them. */
export const withoutDisplayParams = (uri: string) => uri.replace(/&(label|message)=[^&]*/g, '');

/**
 * What the QR code carries: qrData at the best error correction it fits. A long label and message
 * (non-Latin text grows up to ninefold in percent-encoding) can make it too big for any QR code;
 * then the same payment without them, rather than no QR code at all.
 */
export function qrContent(qrData: string): { text: string; level: QRCodeErrorCorrectionLevel } {
  const candidates: { text: string; level: QRCodeErrorCorrectionLevel }[] = [
    { text: qrData, level: 'M' },
    { text: qrData, level: 'L' },
    { text: withoutDisplayParams(qrData), level: 'L' },
  ];
  for (const candidate of candidates.slice(0, -1)) {
    try {
      QRCode.create(candidate.text, { errorCorrectionLevel: candidate.level });
      return candidate;
    } catch {
      // too big at this level: try the next
    }
  }
  return candidates[candidates.length - 1]!;
}

/**
 * Recently rendered codes, by content: a PNG costs ~30 ms of CPU on a public route, and a payment
 * page asks for the same one again and again. Least recently used first out.
 */
const CACHE_SIZE = 500;
const cache = new Map<string, Promise<string | Buffer>>();

function cached(key: string, render: () => Promise<string | Buffer>) {
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const rendered = render();
  cache.set(key, rendered);
  rendered.catch(() => cache.delete(key));
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return rendered;
}

/** Rendered on demand (never at order creation, where it would cost more than the rest). */
export async function renderQr(deps: Deps, reference: string, format: 'svg' | 'png', pick: OptionPick = {}) {
  const { order, merchantName } = await findPublicOrder(deps, reference);
  const { qrData } = paymentLinks(deps, order, merchantName, pickOption(order, pick, 'query'));
  const { text, level } = qrContent(qrData);
  const options = { errorCorrectionLevel: level, margin: MARGIN };
  return cached(`${format}:${level}:${text}`, () =>
    format === 'svg'
      ? QRCode.toString(text, { ...options, type: 'svg' })
      : QRCode.toBuffer(text, { ...options, type: 'png', width: 512 }),
  );
}
