import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import type { Deps } from '../deps';
import { SECRET_TOKEN_PATTERN, secretDigest } from '../lib/secret-token';
import { findOrderRows } from '../orders/order-rows';
import { presentOrder } from '../orders/present-order';
import { cancelSubscription } from './cancel-subscription';
import { MANAGE_PAGE_TEXT, type ManageLanguage } from './manage-page-text';
import { presentSubscription } from './present-subscription';
import { renderManageNotFound, renderManagePage } from './render-manage-page';

/** The payments a customer's page lists, newest first. */
const ORDERS_SHOWN = 24;
const TOKEN = new RegExp(`^${SECRET_TOKEN_PATTERN}$`);

const languageOf = (query: unknown, fallback: string): ManageLanguage => {
  const wanted = typeof query === 'string' ? query : fallback;
  return wanted in MANAGE_PAGE_TEXT ? (wanted as ManageLanguage) : 'en';
};

/**
 * The customer's page, `manageUrl` (public: the secret in the URL is the credential, so it is
 * never logged by its token and the page sends no referrer): the plan, the order to pay now, past
 * payments, and cancel (always at the end of the period, by a form POST to itself).
 */
export function manageRouter(deps: Deps, limit: RequestHandler): Router {
  const router = express.Router();
  const find = (token: string) =>
    TOKEN.test(token)
      ? deps.db.models.Subscription.findOne({ where: { manageTokenHash: secretDigest(token) } })
      : Promise.resolve(null);
  /** The page's subscription, or null once a 404 page in the asked language has answered. */
  const findOrAnswer404 = async (req: Request, res: Response) => {
    const subscription = await find(String(req.params.token));
    if (!subscription)
      res
        .status(404)
        .type('html')
        .send(renderManageNotFound(languageOf(req.query.lang, 'en')));
    return subscription;
  };

  router.get('/subscriptions/manage/:token', limit, async (req, res, next) => {
    try {
      res.setHeader('Cache-Control', 'no-store');
      const subscription = await findOrAnswer404(req, res);
      if (!subscription) return;
      const merchant = await deps.cache.merchants.get(subscription.merchantId);
      const rows = await findOrderRows(deps, {
        where: { subscriptionId: subscription.id },
        order: [['id', 'DESC']],
        limit: ORDERS_SHOWN,
      });
      // The customer's view: what a payer sees of an order (nothing is refundable from here).
      const orders = rows.map((o) => presentOrder(deps, o, merchant?.fullName ?? null, 0n));
      const lang = languageOf(req.query.lang, subscription.customerLanguage);
      res
        .type('html')
        .send(
          renderManagePage(presentSubscription(deps, subscription), orders, lang, merchant?.fullName ?? null),
        );
    } catch (error) {
      next(error);
    }
  });

  router.post(
    '/subscriptions/manage/:token',
    limit,
    express.urlencoded({ extended: false, limit: '1kb' }),
    async (req, res, next) => {
      try {
        const subscription = await findOrAnswer404(req, res);
        if (!subscription) return;
        if (subscription.status !== 'CANCELED' && !subscription.cancelAtPeriodEnd)
          await cancelSubscription(deps, {
            id: subscription.id,
            merchantId: subscription.merchantId,
            atPeriodEnd: true,
            actor: 'payer',
          });
        // Back to the page (a reload does not post again).
        res.redirect(303, req.originalUrl);
      } catch (error) {
        next(error);
      }
    },
  );
  return router;
}
