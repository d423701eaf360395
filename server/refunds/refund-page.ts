import { randomBytes } from 'node:crypto';
import type { Deps } from '../deps';
import { findPublicRefund } from './find-public-refund';
import { pageLanguage } from './page-language';
import { presentPublicRefund } from './present-public-refund';
import { renderRefundPage } from './render-refund-page';

/** The payer's refund page, in their language, with the nonce its inline script and style need. */
export async function refundPage(
  deps: Pick<Deps, 'db' | 'chains'>,
  input: { refundId: string; lang?: string; acceptLanguage?: string },
) {
  const { refund, order, merchantName } = await findPublicRefund(deps, input.refundId);
  const nonce = randomBytes(16).toString('base64');
  const lang = pageLanguage(input.lang, input.acceptLanguage);
  const html = renderRefundPage(presentPublicRefund(deps, refund, order, merchantName), lang, nonce);
  return {
    html,
    contentLanguage: lang,
    contentSecurityPolicy: `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'`,
  };
}
