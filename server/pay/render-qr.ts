import QRCode from 'qrcode';
import type { Deps } from '../deps';
import { paymentLinks } from '../orders/present-order';
import { findPublicOrder } from './find-payable-order';

const QR_OPTIONS = { errorCorrectionLevel: 'M' as const, margin: 2 };

/** Rendered on demand (never at order creation, where it would cost more than the rest). */
export async function renderQr(deps: Deps, reference: string, format: 'svg' | 'png') {
  const { order, merchantName } = await findPublicOrder(deps, reference);
  const { qrData } = paymentLinks(deps, order, merchantName);
  return format === 'svg'
    ? QRCode.toString(qrData, { ...QR_OPTIONS, type: 'svg' })
    : QRCode.toBuffer(qrData, { ...QR_OPTIONS, type: 'png', width: 512 });
}
