import type { Deps } from '../deps';
import { findPublicOrder } from '../orders/find-public-order';
import { presentPaymentInfo } from '../orders/present-payment-info';
import { acceptLanguageTags, pickLocale } from './i18n';
import { renderCheckoutPage } from './page';
import type { NetworkView, PageConfig } from './page-config';

/** The language: `?lang=` when it names one we speak, else the browser's Accept-Language. */
export function checkoutLocale(lang: string | undefined, acceptLanguage: string | undefined) {
  const fromQuery = lang ? pickLocale([lang]) : null;
  const queryMatches = fromQuery !== null && (fromQuery !== 'en' || /^en\b/i.test(lang ?? ''));
  return queryMatches
    ? { locale: fromQuery, fromQuery: true }
    : { locale: pickLocale(acceptLanguageTags(acceptLanguage)), fromQuery: false };
}

/** GET /checkout/{reference}: the page with the order in it (unknown references throw 404). */
export async function renderCheckout(
  deps: Deps,
  input: { reference: string; lang?: string; acceptLanguage?: string },
): Promise<string> {
  const { order, merchantName } = await findPublicOrder(deps, input.reference);
  const { locale, fromQuery } = checkoutLocale(input.lang, input.acceptLanguage);
  const view = (network: typeof order.network): NetworkView => ({
    network,
    ...deps.chains.display(network).presentation,
  });
  const info = presentPaymentInfo(deps, order, merchantName);
  const networks: PageConfig['networks'] = {};
  for (const option of info.paymentOptions) networks[option.network] ??= view(option.network);
  return renderCheckoutPage({
    reference: order.reference,
    locale,
    localeFromQuery: fromQuery,
    info,
    // What is said of the network comes from its chain adapter: this page asks no network questions.
    network: view(order.network),
    networks,
    serverNow: deps.clock().toISOString(),
    sandbox: deps.config.sandbox,
  });
}
