/**
 * Where keyboard focus goes when a dialog's action made the row it acted on disappear (a replayed dead letter
 * leaves "Needs attention", a removed suppression leaves the list). A closing `<dialog>` gives focus back to the
 * button that opened it; when that button leaves the page with its row, focus would fall to the top of the
 * document. {@link keepFocusNearby} watches for that and moves focus, in this order, to:
 *   1. the same action in the next row (the button with the same text), else that row's first button or link;
 *   2. the same in the previous row;
 *   3. the row itself, when only the button went (the row stays, e.g. a cancelled booking's card);
 *   4. the heading of the list (the nearest h1–h3 before the row), else `<main>`.
 * Only focus that was lost is moved: when focus is on anything else by then, it is left alone.
 *
 * A row is the nearest `[data-focus-row]`, table body row, `.case-card`, `.participant` or list item around
 * the opener; rows are its siblings with the same tag that are rows too, up to the next heading in either
 * direction ("Needs attention" lists dead letters, then under their own heading unknown outcomes).
 */

const ROW = '[data-focus-row], tbody > tr, .case-card, .participant, li';
const FOCUSABLE = 'button:not([disabled]), a[href], input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
/** How long a removal is waited for after the action succeeded (ms): a router refresh lands well within it. */
const WATCH_MS = 15_000;

const visible = (el: Element) => el.isConnected && (el as HTMLElement).offsetParent !== null;
const label = (el: Element) => (el.getAttribute('aria-label') ?? el.textContent ?? '').trim();

/** The same action as `opener` in `row` (same visible text), else the row's first button, else its first focusable. */
function actionIn(row: Element, opener: Element): HTMLElement | null {
  const text = (opener.textContent ?? '').trim();
  const buttons = Array.from(row.querySelectorAll<HTMLElement>('button:not([disabled])')).filter(visible);
  return buttons.find((b) => (b.textContent ?? '').trim() === text) ?? buttons[0] ?? Array.from(row.querySelectorAll<HTMLElement>(FOCUSABLE)).find(visible) ?? null;
}

function sameKind(a: Element, b: Element): boolean {
  return a.tagName === b.tagName && a.matches(ROW) && b.matches(ROW);
}

/** The rows of `row`'s kind beside it in one direction, nearest first, up to a heading (where another list starts). */
function rowsFrom(row: Element, direction: 'next' | 'previous'): Element[] {
  const out: Element[] = [];
  for (let el = step(row, direction); el && !/^H[1-6]$/.test(el.tagName); el = step(el, direction)) if (sameKind(el, row)) out.push(el);
  return out;
}

const step = (el: Element, direction: 'next' | 'previous') => (direction === 'next' ? el.nextElementSibling : el.previousElementSibling);

/** The nearest h1–h3 before `el` in document order inside `<main>` (made focusable), else `<main>` itself. */
function headingBefore(el: Element, root: HTMLElement): HTMLElement {
  const heads = Array.from(root.querySelectorAll<HTMLElement>('h1, h2, h3'));
  let best: HTMLElement | null = null;
  for (const h of heads) if (h.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) best = h;
  return best ?? root;
}

function focusSoftly(el: HTMLElement) {
  if (el.tabIndex < 0 && !el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
  el.focus();
}

/**
 * Call when an action started from `opener` (a button in a row) succeeded and the page may now refresh. Until
 * the opener leaves the page (at most {@link WATCH_MS}), nothing happens; then, if focus was lost with it, focus
 * moves as the module doc says. Safe to call for actions that remove nothing.
 */
export function keepFocusNearby(opener: Element | null): void {
  if (!opener || typeof MutationObserver === 'undefined') return;
  const row = opener.closest(ROW);
  const main = (opener.closest('main') ?? document.querySelector('main')) as HTMLElement | null;
  if (!main) return;
  const after = row ? rowsFrom(row, 'next') : [];
  const before = row ? rowsFrom(row, 'previous') : [];
  const heading = headingBefore(row ?? opener, main);
  const openerLabel = label(opener);

  const place = () => {
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return; // focus is somewhere real: leave it
    if (row && row.isConnected) {
      // Only the button went: the same action if the row still has it, else the row.
      const again = Array.from(row.querySelectorAll<HTMLElement>('button:not([disabled])')).find((b) => visible(b) && label(b) === openerLabel);
      focusSoftly(again ?? (row as HTMLElement));
      return;
    }
    for (const r of [...after, ...before]) {
      if (!r.isConnected) continue;
      const target = actionIn(r, opener);
      if (target) {
        target.focus();
        return;
      }
    }
    focusSoftly(heading.isConnected ? heading : main);
  };

  const observer = new MutationObserver(() => {
    if (opener.isConnected) return;
    stop();
    // After the browser's own focus fix-up for the removed element.
    requestAnimationFrame(place);
  });
  const timer = window.setTimeout(() => stop(), WATCH_MS);
  const stop = () => {
    observer.disconnect();
    window.clearTimeout(timer);
  };
  observer.observe(document.body, { childList: true, subtree: true });
}
