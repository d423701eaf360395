/** Small DOM helpers: elements are built with textContent, never innerHTML, so no order field can inject markup. */

type Attrs = Record<string, string | boolean | undefined>;
type Child = Node | string | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (name === 'class') node.className = String(value);
    else node.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

/** Sets text only when it changed: a live region re-announces every write, even of the same words. */
export function setText(node: Element, text: string) {
  if (node.textContent !== text) node.textContent = text;
}

export function show(node: HTMLElement, visible: boolean) {
  if (node.hidden === visible) node.hidden = !visible;
}

/** The clipboard API where the page may use it; a selected hidden field and execCommand elsewhere (http pages). */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the older way
  }
  const area = el('textarea', { 'aria-hidden': 'true', class: 'offscreen', tabindex: '-1' });
  area.value = text;
  document.body.append(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}
