import { Maximize, Minus, Plus, ScanSearch } from 'lucide-react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { type KeyboardEvent, type PointerEvent, type ReactNode, type WheelEvent, useCallback, useLayoutEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogDescription, DialogTitle, DialogTrigger } from '@/components/ui/dialog';

// Enlarge (issue 18): the picture full screen at its own resolution (100% is one picture pixel to one CSS pixel),
// fitted to the screen first, with zoom and pan by wheel, pinch, drag, keyboard and buttons.

const MAX_SCALE = 8;
const STEP = 1.25;
const PAN_STEP = 60;

type View = { scale: number; x: number; y: number };
type Size = { width: number; height: number };

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** Keeps the picture on screen: centred along a side where it is smaller than the screen, else no gap at the edges. */
function placed(view: View, picture: Size, screen: Size): View {
  const along = (offset: number, length: number, room: number) => (length <= room ? (room - length) / 2 : clamp(offset, room - length, 0));
  return { scale: view.scale, x: along(view.x, picture.width * view.scale, screen.width), y: along(view.y, picture.height * view.scale, screen.height) };
}

export function PictureViewer({ src, alt, title, trigger }: { src: string; alt: string; title: string; trigger: ReactNode }) {
  return (
    <Dialog>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/90 animate-fade-in" />
        <DialogPrimitive.Content
          className="fixed inset-0 z-50 flex flex-col bg-black/90 text-white outline-none animate-fade-in"
        >
          <ViewerBody src={src} alt={alt} title={title} />
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </Dialog>
  );
}

function ViewerBody({ src, alt, title }: { src: string; alt: string; title: string }) {
  const screenRef = useRef<HTMLDivElement>(null);
  const [natural, setNatural] = useState<Size | null>(null);
  const [view, setView] = useState<View>({ scale: 1, x: 0, y: 0 });
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const pinch = useRef<{ distance: number } | null>(null);

  const screen = useCallback((): Size => {
    const box = screenRef.current?.getBoundingClientRect();
    return { width: box?.width ?? window.innerWidth, height: box?.height ?? window.innerHeight };
  }, []);

  const fitScale = useCallback(() => {
    if (!natural) return 1;
    const room = screen();
    return Math.min(1, room.width / natural.width, room.height / natural.height);
  }, [natural, screen]);

  const fit = useCallback(() => {
    if (!natural) return;
    setView(placed({ scale: fitScale(), x: 0, y: 0 }, natural, screen()));
  }, [natural, fitScale, screen]);

  // Before paint: the picture is first shown already fitted, and a key pressed the moment it shows is not undone.
  useLayoutEffect(() => {
    fit();
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  }, [fit]);

  /** Zooms by `factor` keeping the picture point under (px, py) (screen coordinates) where it is. */
  const zoomAt = useCallback(
    (factor: number, px?: number, py?: number) => {
      if (!natural) return;
      const room = screen();
      setView((current) => {
        const scale = clamp(current.scale * factor, Math.min(fitScale(), 1), MAX_SCALE);
        const cx = px ?? room.width / 2;
        const cy = py ?? room.height / 2;
        const ratio = scale / current.scale;
        return placed({ scale, x: cx - (cx - current.x) * ratio, y: cy - (cy - current.y) * ratio }, natural, room);
      });
    },
    [natural, fitScale, screen],
  );

  const actualSize = () => {
    if (!natural) return;
    setView((current) => {
      const room = screen();
      const ratio = 1 / current.scale;
      return placed({ scale: 1, x: room.width / 2 - (room.width / 2 - current.x) * ratio, y: room.height / 2 - (room.height / 2 - current.y) * ratio }, natural, room);
    });
  };

  const panBy = (dx: number, dy: number) => {
    if (!natural) return;
    setView((current) => placed({ ...current, x: current.x + dx, y: current.y + dy }, natural, screen()));
  };

  function onKeyDown(event: KeyboardEvent) {
    const keys: Record<string, () => void> = {
      '+': () => zoomAt(STEP),
      '=': () => zoomAt(STEP),
      '-': () => zoomAt(1 / STEP),
      _: () => zoomAt(1 / STEP),
      '0': fit,
      '1': actualSize,
      ArrowLeft: () => panBy(PAN_STEP, 0),
      ArrowRight: () => panBy(-PAN_STEP, 0),
      ArrowUp: () => panBy(0, PAN_STEP),
      ArrowDown: () => panBy(0, -PAN_STEP),
    };
    const action = keys[event.key];
    if (!action || event.metaKey || event.ctrlKey || event.altKey) return;
    event.preventDefault();
    action();
  }

  function local(event: { clientX: number; clientY: number }) {
    const box = screenRef.current!.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  }

  function onWheel(event: WheelEvent) {
    const { x, y } = local(event);
    zoomAt(Math.exp(-event.deltaY * 0.0015), x, y);
  }

  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    event.currentTarget.setPointerCapture(event.pointerId);
    pointers.current.set(event.pointerId, local(event));
    if (pointers.current.size === 2) {
      const [a, b] = [...pointers.current.values()];
      pinch.current = { distance: Math.hypot(a!.x - b!.x, a!.y - b!.y) };
    }
  }

  function onPointerMove(event: PointerEvent<HTMLDivElement>) {
    const previous = pointers.current.get(event.pointerId);
    if (!previous) return;
    const now = local(event);
    pointers.current.set(event.pointerId, now);
    if (pointers.current.size >= 2 && pinch.current) {
      const [a, b] = [...pointers.current.values()];
      const distance = Math.hypot(a!.x - b!.x, a!.y - b!.y);
      if (pinch.current.distance > 0) zoomAt(distance / pinch.current.distance, (a!.x + b!.x) / 2, (a!.y + b!.y) / 2);
      pinch.current = { distance };
    } else {
      panBy(now.x - previous.x, now.y - previous.y);
    }
  }

  function onPointerUp(event: PointerEvent<HTMLDivElement>) {
    pointers.current.delete(event.pointerId);
    if (pointers.current.size < 2) pinch.current = null;
  }

  const percent = Math.round(view.scale * 100);
  return (
    <div className="flex min-h-0 flex-1 flex-col" onKeyDown={onKeyDown}>
      {/* One line at any width (a wrapped toolbar ate a phone's picture): the title gives way, cut short with its whole text on hover. */}
      <div className="flex flex-nowrap items-center gap-1.5 border-b border-white/15 bg-black/60 px-3 py-2 sm:gap-2" data-testid="picture-viewer-toolbar">
        <DialogTitle className="mr-auto min-w-0 flex-1 truncate text-base font-semibold text-white" title={title}>
          {title}
        </DialogTitle>
        <DialogDescription className="sr-only">
          Zoom with the mouse wheel, a pinch, the plus and minus keys or the buttons; drag or use the arrow keys to move around; 0 fits the picture to the screen, 1 shows it at its own
          resolution.
        </DialogDescription>
        <span className="shrink-0 text-right text-sm tabular-nums text-white/80 sm:min-w-14" aria-live="polite">
          {percent}%
        </span>
        <ViewerButton label="Zoom out" onClick={() => zoomAt(1 / STEP)}>
          <Minus aria-hidden />
        </ViewerButton>
        <ViewerButton label="Zoom in" onClick={() => zoomAt(STEP)}>
          <Plus aria-hidden />
        </ViewerButton>
        <ViewerButton label="Fit to screen" onClick={fit}>
          <Maximize aria-hidden />
        </ViewerButton>
        <ViewerButton label="Actual size (100%)" onClick={actualSize}>
          <ScanSearch aria-hidden />
        </ViewerButton>
        <DialogPrimitive.Close asChild>
          <Button size="sm" variant="secondary">
            Close
          </Button>
        </DialogPrimitive.Close>
      </div>
      <div
        ref={screenRef}
        data-testid="picture-viewer-screen"
        className="relative min-h-0 flex-1 cursor-grab touch-none select-none overflow-hidden active:cursor-grabbing"
        onWheel={onWheel}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
      >
        <img
          src={src}
          alt={alt}
          draggable={false}
          onLoad={(event) => {
            const { naturalWidth: width, naturalHeight: height } = event.currentTarget;
            // The same picture loaded again keeps the view the user zoomed to: only a new size fits it anew.
            setNatural((current) => (current?.width === width && current.height === height ? current : { width, height }));
          }}
          className="absolute left-0 top-0 max-w-none origin-top-left"
          style={{
            width: natural?.width,
            height: natural?.height,
            transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})`,
            visibility: natural ? 'visible' : 'hidden',
            imageRendering: view.scale > 2 ? 'pixelated' : 'auto',
          }}
        />
      </div>
    </div>
  );
}

function ViewerButton({ label, onClick, children }: { label: string; onClick: () => void; children: ReactNode }) {
  return (
    <Button size="icon" variant="secondary" aria-label={label} title={label} onClick={onClick} className="size-9">
      {children}
    </Button>
  );
}
