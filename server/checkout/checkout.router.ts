import express, { type Router } from 'express';
import { CHECKOUT_SCRIPT } from './checkout-script';

/** The page itself: its script fills it from the public /pay routes and polls the status. */
export const checkoutPage = (reference: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pay with stablecoins</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:system-ui,sans-serif;max-width:420px;margin:2rem auto;padding:0 1rem;color:#111}
.card{border:1px solid #ddd;border-radius:12px;padding:1.5rem;text-align:center}
.amount{font-size:2rem;font-weight:700}.muted{color:#666;font-size:.9rem;word-break:break-all}
.status{display:inline-block;padding:.2rem .6rem;border-radius:999px;background:#eee;font-weight:600}
.PAID{background:#d1fae5}.EXPIRED{background:#fee2e2}.CONFIRMING{background:#fef3c7}
img{width:256px;height:256px}a.button{display:inline-block;margin-top:1rem;padding:.6rem 1.2rem;background:#0f766e;color:#fff;border-radius:8px;text-decoration:none}
</style></head>
<body><div class="card" id="checkout" data-reference="${reference}">
<p class="muted" id="merchant"></p><div class="amount" id="amount">…</div>
<p class="muted" id="quote"></p><p><span class="status" id="status"></span></p>
<img id="qr" alt="Payment QR code" src="/pay/${reference}/qr.svg">
<p><a class="button" id="open" href="#">Open in wallet</a></p>
<p class="muted">Send exactly the amount shown to <span id="recipient"></span></p>
<p class="muted" id="expires"></p></div>
<script src="/checkout/assets/checkout.js"></script></body></html>`;

/** The page's script, a static asset (the page is a contract route: pay.checkout). */
export function checkoutAssets(): Router {
  const router = express.Router();
  router.get('/checkout/assets/checkout.js', (_req, res) =>
    res.type('application/javascript').send(CHECKOUT_SCRIPT),
  );
  return router;
}
