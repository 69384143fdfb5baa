// Where a toast goes so that it never covers the button just pressed, nor a primary action. The page keeps its
// primary actions low (the result's bar held at the bottom of a phone, the wizard's Next, forms' submit buttons,
// the order summary), so a toast shows at the top centre, under the sticky top bar; only when the control just
// pressed sits where that toast would be does it show at the bottom instead.

export type ToastPlacement = 'top' | 'bottom';

/** The top bar's height (top-16) and room for a toast of three lines with the viewport's padding. */
const TOP_BAR_PX = 64;
const TOAST_ZONE_PX = 150;
/** The toast's width: max-w-sm, less the viewport's padding on a narrow screen. */
const TOAST_WIDTH_PX = 384;

let lastPressed: Element | null = null;
let tracking = false;

function remember(event: Event) {
  if (event instanceof KeyboardEvent && event.key !== 'Enter' && event.key !== ' ') return;
  lastPressed = event.target instanceof Element ? (event.target.closest('button, a, [role="button"], input, label') ?? event.target) : null;
}

/** Starts noting which control is pressed (pointer or Enter/Space), once for the page. */
export function trackPressedControls(): void {
  if (tracking || typeof document === 'undefined') return;
  tracking = true;
  document.addEventListener('pointerdown', remember, { capture: true });
  document.addEventListener('keydown', remember, { capture: true });
}

/** The area a top-placed toast covers, in viewport pixels. */
export function topToastArea(viewportWidth: number): { left: number; right: number; top: number; bottom: number } {
  const width = Math.min(TOAST_WIDTH_PX, viewportWidth);
  const left = (viewportWidth - width) / 2;
  return { left, right: left + width, top: TOP_BAR_PX, bottom: TOP_BAR_PX + TOAST_ZONE_PX };
}

/** Top, unless the control just pressed is where a top toast would be. */
export function placementForNewToast(): ToastPlacement {
  if (typeof window === 'undefined' || !lastPressed?.isConnected) return 'top';
  const pressed = lastPressed.getBoundingClientRect();
  const area = topToastArea(window.innerWidth);
  const overlaps = pressed.left < area.right && pressed.right > area.left && pressed.top < area.bottom && pressed.bottom > area.top;
  return overlaps ? 'bottom' : 'top';
}
