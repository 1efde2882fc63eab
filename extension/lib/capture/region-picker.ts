/**
 * "Capture a region…": an overlay drawn in the page over the visible area, where the member drags a
 * rectangle. `pickRegion` runs in the page (serialized by `scripting.executeScript`: self-contained,
 * its strings passed as arguments, as it cannot import the extension's tables) and resolves once the
 * overlay is gone from the screen, so the screenshot taken next does not show it.
 */

/** The overlay's words, in the member's language. */
export interface RegionPickerText {
  /** The overlay's accessible name. */
  label: string;
  /** Shown (and announced) while it is open. */
  instructions: string;
  /** The live size, `{width} × {height}` in CSS pixels. */
  size: string;
}

/** What the member picked: a rectangle in CSS pixels of the viewport, the device pixels per CSS pixel, and the viewport's width. */
export interface PickedRegion {
  x: number;
  y: number;
  width: number;
  height: number;
  dpr: number;
  /** innerWidth, CSS pixels: tells the screenshot's real scale when the page's dpr is emulated (tab-capture screenScale). */
  viewportWidth: number;
}

/** Smaller drags (in CSS pixels, either way) are clicks: nothing is captured. */
export const MIN_DRAG_PX = 4;
/** The overlay closes by itself (nothing captured) after this long. */
export const PICK_TIMEOUT_MS = 3 * 60_000;

/**
 * In the page: shows the overlay and answers the dragged rectangle, or null on Escape, a click
 * without a drag, the timeout, or a second overlay opened over this one. Position-fixed and in
 * client coordinates, so a scrolled page changes nothing; in a shadow root, so the page's styles
 * do not reach it.
 */
export function pickRegion(text: RegionPickerText, minDrag: number, timeoutMs: number): Promise<PickedRegion | null> {
  const scope = globalThis as unknown as { __arkbridgeRegionCancel?: () => void };
  scope.__arkbridgeRegionCancel?.();
  return new Promise((resolve) => {
    const host = document.createElement('div');
    host.setAttribute('role', 'dialog');
    host.setAttribute('aria-label', text.label);
    host.setAttribute('data-arkbridge-region', '');
    host.tabIndex = -1;
    host.style.cssText = 'all:initial;position:fixed;inset:0;z-index:2147483647;cursor:crosshair;';
    const root = host.attachShadow({ mode: 'open' });
    // Built node by node: no markup parsed in the page (a Trusted Types policy would refuse it).
    const part = (className: string, parent: Node) => parent.appendChild(Object.assign(document.createElement('div'), { className }));
    const style = document.createElement('style');
    style.textContent =
      ':host{all:initial}' +
      '.backdrop{position:fixed;inset:0;background:rgba(0,0,0,.45);overflow:hidden;cursor:crosshair;touch-action:none;user-select:none}' +
      '.backdrop.dragging{background:transparent}' +
      '.box{position:fixed;display:none;outline:2px solid #fff;box-shadow:0 0 0 1px #2456e8,0 0 0 200vmax rgba(0,0,0,.45)}' +
      '.size{position:fixed;display:none;font:600 12px/1.4 system-ui,sans-serif;color:#fff;background:#1b2a4a;padding:2px 6px;border-radius:4px;white-space:nowrap}' +
      '.help{position:fixed;top:16px;left:50%;transform:translateX(-50%);max-width:90vw;font:14px/1.4 system-ui,sans-serif;color:#fff;background:#1b2a4a;padding:8px 14px;border-radius:6px;box-shadow:0 2px 8px rgba(0,0,0,.4);pointer-events:none}';
    root.append(style);
    const backdrop = part('backdrop', root);
    const box = part('box', backdrop);
    const size = part('size', backdrop);
    size.setAttribute('aria-hidden', 'true');
    const help = part('help', backdrop);
    help.setAttribute('role', 'status');
    help.setAttribute('aria-live', 'polite');
    help.textContent = text.instructions;

    let start: { x: number; y: number } | null = null;
    let rect = { x: 0, y: 0, width: 0, height: 0 };
    const draw = (x: number, y: number) => {
      if (!start) return;
      rect = { x: Math.min(start.x, x), y: Math.min(start.y, y), width: Math.abs(x - start.x), height: Math.abs(y - start.y) };
      backdrop.classList.add('dragging');
      Object.assign(box.style, { display: 'block', left: `${rect.x}px`, top: `${rect.y}px`, width: `${rect.width}px`, height: `${rect.height}px` });
      size.textContent = text.size.replace('{width}', String(Math.round(rect.width))).replace('{height}', String(Math.round(rect.height)));
      // Below the box, or inside its bottom edge when the box reaches the viewport's bottom.
      const below = rect.y + rect.height + 6;
      Object.assign(size.style, { display: 'block', left: `${rect.x}px`, top: `${below + 24 > innerHeight ? Math.max(0, rect.y + rect.height - 26) : below}px` });
    };

    const onDown = (event: PointerEvent) => {
      if (event.button !== 0) return;
      event.preventDefault();
      start = { x: event.clientX, y: event.clientY };
      try {
        host.setPointerCapture?.(event.pointerId);
      } catch {
        // A synthetic pointer: moves still reach the overlay, which covers the viewport.
      }
    };
    const onMove = (event: PointerEvent) => draw(event.clientX, event.clientY);
    const onUp = (event: PointerEvent) => {
      if (!start) return;
      draw(event.clientX, event.clientY);
      const dragged = rect.width >= minDrag && rect.height >= minDrag;
      finish(dragged ? { ...rect, dpr: devicePixelRatio || 1, viewportWidth: innerWidth } : null);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      event.stopPropagation();
      finish(null);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);

    let done = false;
    function finish(picked: PickedRegion | null) {
      if (done) return;
      done = true;
      clearTimeout(timer);
      host.removeEventListener('pointerdown', onDown);
      host.removeEventListener('pointermove', onMove);
      host.removeEventListener('pointerup', onUp);
      removeEventListener('keydown', onKey, true);
      host.remove();
      if (scope.__arkbridgeRegionCancel === cancel) delete scope.__arkbridgeRegionCancel;
      // Two frames: the page is painted without the overlay before the screenshot (a timer in
      // case frames do not come, in a hidden tab).
      let answered = false;
      const answer = () => {
        if (answered) return;
        answered = true;
        resolve(picked);
      };
      requestAnimationFrame(() => requestAnimationFrame(answer));
      setTimeout(answer, 250);
    }
    const cancel = () => finish(null);
    scope.__arkbridgeRegionCancel = cancel;

    host.addEventListener('pointerdown', onDown);
    host.addEventListener('pointermove', onMove);
    host.addEventListener('pointerup', onUp);
    addEventListener('keydown', onKey, true);
    document.documentElement.append(host);
    host.focus({ preventScroll: true });
  });
}

/** Most CSS pixels either way a picked rectangle is believed to span (larger answers are not a page's viewport). */
const REGION_MAX_PX = 100_000;
const DPR_MAX = 16;

const finite = (value: unknown, min: number, max: number): value is number => typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max;

/** The page's answer, if it is a rectangle this module could have drawn (the page is not trusted); else null. */
export function readPickedRegion(value: unknown): PickedRegion | null {
  if (!value || typeof value !== 'object') return null;
  const { x, y, width, height, dpr, viewportWidth } = value as Record<string, unknown>;
  if (!finite(x, -REGION_MAX_PX, REGION_MAX_PX) || !finite(y, -REGION_MAX_PX, REGION_MAX_PX)) return null;
  if (!finite(width, 1, REGION_MAX_PX) || !finite(height, 1, REGION_MAX_PX) || !finite(dpr, 0.1, DPR_MAX)) return null;
  if (!finite(viewportWidth, 1, REGION_MAX_PX)) return null;
  return { x, y, width, height, dpr, viewportWidth };
}
