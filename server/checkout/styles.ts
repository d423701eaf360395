/**
 * The checkout's stylesheet, served as /checkout/assets/checkout.css. Phone first: one column that
 * holds at 320 px, 44 px touch targets, long addresses that wrap, and colours that keep at least
 * WCAG AA contrast in light and dark mode.
 */
export const CHECKOUT_CSS = `
:root{--fg:#14181f;--muted:#4b5563;--bg:#f4f6f8;--card:#fff;--line:#d7dce2;--accent:#0f766e;--accent-fg:#fff;
--info-bg:#e8f1fd;--info-fg:#1e40af;--wait-bg:#fef6e0;--wait-fg:#854d0e;--part-bg:#fff0e0;--part-fg:#9a3412;
--ok-bg:#e3f7ec;--ok-fg:#166534;--bad-bg:#f3f4f6;--bad-fg:#374151;--warn-bg:#fff7ed;--warn-line:#f59e0b;--err:#b91c1c;
color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--fg:#eef1f5;--muted:#b4bcc8;--bg:#0f1318;--card:#181e26;--line:#2e3742;
--accent:#2dd4bf;--accent-fg:#06201d;--info-bg:#172554;--info-fg:#bfdbfe;--wait-bg:#3b2f0a;--wait-fg:#fde68a;
--part-bg:#431407;--part-fg:#fed7aa;--ok-bg:#052e16;--ok-fg:#bbf7d0;--bad-bg:#1f2937;--bad-fg:#e5e7eb;--warn-bg:#2a1f0a;--err:#fca5a5}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
.page{max-width:480px;margin:0 auto;padding:12px}
.top{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:8px;margin-bottom:8px}
.brand{display:flex;align-items:center;gap:8px;margin:0;font-weight:700}
.langs ul{display:flex;flex-wrap:wrap;gap:4px 12px;list-style:none;margin:0;padding:0;font-size:.9rem}
.langs a{color:var(--muted);display:inline-block;padding:6px 0}
.langs a[aria-current]{color:var(--fg);font-weight:700;text-decoration:none}
.card{background:var(--card);border:1px solid var(--line);border-radius:14px;padding:20px 16px}
h1{font-size:1.35rem;line-height:1.3;margin:0 0 4px;overflow-wrap:anywhere}
h2{font-size:1.05rem;margin:0 0 8px}
.label{font-size:.85rem;font-weight:600;color:var(--muted);margin:16px 0 0;text-transform:uppercase;letter-spacing:.03em}
.description{margin:0;color:var(--muted);overflow-wrap:anywhere}
.amount-row{display:flex;flex-wrap:wrap;align-items:center;gap:8px 12px}
.amount{font-size:clamp(1.6rem,9vw,2rem);font-weight:750;margin:0;letter-spacing:-.01em;font-variant-numeric:tabular-nums;overflow-wrap:anywhere}
.muted{color:var(--muted);margin:4px 0;font-size:.95rem}
.status{border-radius:10px;padding:12px 14px;margin:16px 0 8px;background:var(--info-bg);color:var(--info-fg)}
.status:focus{outline:3px solid var(--accent);outline-offset:2px}
.status p{margin:0}.status[role=alert] .status-title{font-weight:500;font-size:1rem}.status[role=alert] .status-title::before{display:none}.status-title{font-weight:700;font-size:1.1rem}.status-hint{margin-top:4px!important}
.status.confirming{background:var(--wait-bg);color:var(--wait-fg)}
.status.underpaid{background:var(--part-bg);color:var(--part-fg)}
.status.paid,.status.paid_late{background:var(--ok-bg);color:var(--ok-fg)}
.status.expired{background:var(--bad-bg);color:var(--bad-fg)}
.status-title::before{content:"";display:inline-block;width:.7em;height:.7em;border-radius:50%;background:currentColor;margin-right:.5em;vertical-align:.05em}
.countdown{margin:8px 0;font-weight:600}.countdown-value{font-variant-numeric:tabular-nums;font-size:1.15rem}
.countdown.urgent{color:var(--err)}
.choice{border:0;margin:12px 0;padding:0;min-width:0}.choice legend{font-weight:650;padding:0;margin:0 0 6px}
.choice-item{position:relative;margin:0 0 6px}.choice-item input{position:absolute;opacity:0;width:1px;height:1px}
.choice-item label{display:flex;align-items:center;gap:10px;min-height:44px;padding:8px 12px;border:1px solid var(--line);border-radius:10px;cursor:pointer}
.choice-item label::before{content:"";flex:none;width:1em;height:1em;border-radius:50%;border:2px solid var(--muted);box-sizing:border-box}
.choice-item input:checked+label{border-color:var(--accent);box-shadow:inset 0 0 0 1px var(--accent);font-weight:650}
.choice-item input:checked+label::before{border:5px solid var(--accent)}
.choice-item input:focus-visible+label{outline:3px solid var(--accent);outline-offset:2px}
.paid-with{font-weight:650}
.done{margin:12px 0}.done p{margin:8px 0}
.pay section{border-top:1px solid var(--line);padding-top:16px;margin-top:16px}
.warn{background:var(--warn-bg);border-left:4px solid var(--warn-line);padding:10px 12px;border-radius:6px;margin:16px 0 0}
.wallets,.noscript-options{list-style:none;margin:0;padding:0;display:grid;gap:8px}
.button,button{font:inherit;display:inline-flex;align-items:center;justify-content:center;gap:8px;min-height:44px;padding:8px 16px;
border-radius:10px;border:1px solid var(--line);background:var(--card);color:var(--fg);text-decoration:none;cursor:pointer}
.button.primary,.button.wallet{background:var(--accent);color:var(--accent-fg);border-color:var(--accent);font-weight:650;width:100%}
button:disabled{opacity:.6;cursor:progress}
button.copy{min-height:36px;padding:4px 12px;font-size:.9rem}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.wallet-message{margin:8px 0 0}.wallet-message:empty{margin:0}.wallet-message.error{color:var(--err)}
.qr{display:block;width:220px;height:220px;max-width:100%;margin:8px auto;background:#fff;border-radius:8px;padding:6px}
.link-text{font-size:.85rem;margin:8px 0}
code,.wrap{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85em;overflow-wrap:anywhere;word-break:break-all}
.details{margin:0}.details .row{padding:6px 0;border-bottom:1px solid var(--line)}
.details dt{font-size:.85rem;color:var(--muted)}.details dd{margin:0;display:flex;flex-wrap:wrap;align-items:center;gap:4px 8px}
.ref{font-size:.8rem;color:var(--muted);margin:20px 0 0}
.foot{text-align:center;color:var(--muted);font-size:.8rem;padding:12px}
.report{border-top:1px solid var(--line);margin-top:16px;padding-top:12px}
.report summary{cursor:pointer;color:var(--accent);font-weight:600;padding:10px 0}
.report form{margin:8px 0 0}.report label{display:block;font-weight:600;margin:12px 0 4px}
.report input{font:inherit;width:100%;min-height:44px;padding:8px 10px;border:1px solid var(--line);border-radius:10px;background:var(--card);color:var(--fg)}
.report input[aria-invalid=true]{border-color:var(--err)}
.report .hint{font-size:.85rem}.report-sign{margin:12px 0}.report-sign p{margin:0 0 8px}
#report-send{width:100%}.report-status{margin:8px 0 0}.report-status:empty{margin:0}
.report-status.error{color:var(--err)}.report-status.ok{color:var(--ok-fg);font-weight:600}
.sr-only,.offscreen{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
[hidden]{display:none!important}
.sandbox-banner{margin:0;padding:8px 12px;text-align:center;background:#fef3c7;color:#78350f;border-bottom:3px solid #f59e0b;font-size:.95rem}
.sandbox-banner strong{margin-right:.35em}
@media (prefers-color-scheme:dark){.sandbox-banner{background:#451a03;color:#fde68a}}
.pay .sandbox-pay{border:2px dashed var(--warn-line);border-radius:10px;padding:12px;margin:16px 0 0}
.sandbox-pay h2{margin:0 0 4px}.sandbox-pay p{margin:0 0 8px}
#sandbox-pay-button{width:100%;font-weight:650}
`;
