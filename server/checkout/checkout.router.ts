import { initServer } from '@ts-rest/express';
import express, { type ErrorRequestHandler, type Router } from 'express';
import { payContract } from '../../contract';
import type { Deps } from '../deps';
import { toApiError } from '../http/error-handler';
import { checkoutScript } from './bundle';
import { checkoutLocale, renderCheckout } from './render-checkout';
import { renderErrorPage } from './page';
import { CHECKOUT_CSS } from './styles';

/** Browsers revalidate with the ETag Express adds; five minutes saves the round trip meanwhile. */
const ASSET_CACHE = 'public, max-age=300';

/** The page itself: the contract's pay.checkout route, served alongside the rest of payContract. */
export function checkoutPageRoute(deps: Deps) {
  return initServer().router(
    { checkout: payContract.checkout },
    {
      checkout: async ({ params, query, req, res }) => {
        const body = await renderCheckout(deps, {
          reference: params.reference,
          lang: query.lang,
          acceptLanguage: req.get('accept-language'),
        });
        // The page carries the live order: never from a cache.
        res.setHeader('Cache-Control', 'no-store');
        return { status: 200, body };
      },
    },
  );
}

/** The page's script and stylesheet (the page itself is checkoutPageRoute). */
export function checkoutAssets(): Router {
  void checkoutScript().catch(() => undefined); // warm up: the first payer should not wait for the build
  const router = express.Router();
  router.get('/checkout/assets/checkout.js', async (_req, res, next) => {
    try {
      const script = await checkoutScript();
      res.setHeader('Cache-Control', ASSET_CACHE);
      res.type('application/javascript').send(script);
    } catch (error) {
      next(error);
    }
  });
  router.get('/checkout/assets/checkout.css', (_req, res) => {
    res.setHeader('Cache-Control', ASSET_CACHE);
    res.type('text/css').send(CHECKOUT_CSS);
  });
  return router;
}

/**
 * A payer who follows a bad or unknown checkout link in a browser gets a page in their language,
 * not an API error body; API clients (asking for JSON or anything) keep the one error body.
 * Mounted just before the error handler. On a sandbox it says so, as every checkout page does.
 */
export const checkoutErrorPage =
  (deps: Pick<Deps, 'config'>): ErrorRequestHandler =>
  (err, req, res, next) => {
    if (res.headersSent || !/^\/checkout(\/|$)/i.test(req.path) || req.accepts(['json', 'html']) !== 'html')
      return next(err);
    const apiError = toApiError(err);
    if (!apiError || apiError.status >= 500) return next(err);
    const lang = typeof req.query.lang === 'string' ? req.query.lang : undefined;
    const { locale } = checkoutLocale(lang, req.get('accept-language'));
    const kind = apiError.status === 404 ? 'notFound' : 'badLink';
    res
      .status(apiError.status)
      .type('html')
      .send(renderErrorPage(locale, kind, req.path, deps.config.sandbox));
  };
