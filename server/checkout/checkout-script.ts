/** Browser script of the checkout page: fills in the order and polls its status until it settles. */
export const CHECKOUT_SCRIPT = `(() => {
  const root = document.getElementById('checkout');
  const ref = root.dataset.reference;
  const set = (id, text) => { document.getElementById(id).textContent = text; };
  async function refresh() {
    const res = await fetch('/pay/' + ref + '/info');
    if (!res.ok) { set('amount', 'Order not found'); return false; }
    const o = await res.json();
    set('merchant', o.merchantName || '');
    set('amount', o.amountDue + ' ' + o.token + ' on ' + o.network);
    set('quote', o.quoteAmount ? o.quoteAmount + ' ' + o.quoteCurrency + ' (' + o.fxRateLabel + ')' : '');
    set('recipient', o.recipient);
    set('expires', 'Expires ' + new Date(o.expiresAt).toLocaleString());
    const status = document.getElementById('status');
    status.textContent = o.status; status.className = 'status ' + o.status;
    document.getElementById('open').href = o.payUrl;
    return o.status !== 'PAID';
  }
  (async function loop() { if (await refresh().catch(() => true)) setTimeout(loop, 4000); })();
})();`;
