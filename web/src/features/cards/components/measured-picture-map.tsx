import { CARD_HEIGHT_MM, CARD_WIDTH_MM, measuredCardSize } from '@contracts/measurement';
import type { Point, SideMeasurement } from '@contracts/measurement';
import { useEffect, useRef, useState } from 'react';
import { defectName, formatMm } from '../grade-format';
import { defectSize } from './defects-section';
import { measuredAxisText, sharesInReadingOrder } from './centering-section';

// The measured picture for a narrow screen. The engine's annotated PNG writes its labels into the picture at a fixed
// size, so on a phone they shrink with it, crowd the card and its printed name, and cannot move out of each other's
// way. Here the photo is flattened in the browser (a perspective transform from the card's measured corners onto
// the card's rectangle), the inner border lines and a numbered marker per defect are drawn over it at a size that
// reads on any screen, and what the markers mean is listed under it in text. The engine's picture stays one tap
// away, enlarged.

/** Marker radius and the closest two markers' centres may come, in mm of card. */
const MARKER_RADIUS_MM = 3.4;
const MARKER_GAP_MM = 2 * MARKER_RADIUS_MM + 0.8;
/** How close a marker's centre may come to the card's edge: its radius, its outline's half width and a little room. */
const MARKER_INSET_MM = MARKER_RADIUS_MM + 0.6;

type Homography = [number, number, number, number, number, number, number, number];

/**
 * The projective transform taking the four `from` points onto the four `to` points: x' = (a x + b y + c) / (g x + h y + 1),
 * y' = (d x + e y + f) / (g x + h y + 1), solved by Gaussian elimination. Null when the points are degenerate.
 */
export function homography(from: readonly Point[], to: readonly Point[]): Homography | null {
  const rows: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const { x, y } = from[i]!;
    const { x: u, y: v } = to[i]!;
    rows.push([x, y, 1, 0, 0, 0, -x * u, -y * u, u]);
    rows.push([0, 0, 0, x, y, 1, -x * v, -y * v, v]);
  }
  for (let col = 0; col < 8; col++) {
    let pivot = col;
    for (let r = col + 1; r < 8; r++) if (Math.abs(rows[r]![col]!) > Math.abs(rows[pivot]![col]!)) pivot = r;
    if (Math.abs(rows[pivot]![col]!) < 1e-12) return null;
    [rows[col], rows[pivot]] = [rows[pivot]!, rows[col]!];
    const lead = rows[col]!;
    for (let r = 0; r < 8; r++) {
      if (r === col) continue;
      const factor = rows[r]![col]! / lead[col]!;
      if (factor === 0) continue;
      for (let c = col; c < 9; c++) rows[r]![c]! -= factor * lead[c]!;
    }
  }
  return rows.map((row, i) => row[8]! / row[i]!) as Homography;
}

/** The CSS transform (origin top-left) that applies a homography to an element laid out at 0,0. */
export function matrix3d([a, b, c, d, e, f, g, h]: Homography): string {
  return `matrix3d(${[a, d, 0, g, b, e, 0, h, 0, 0, 1, 0, c, f, 0, 1].join(',')})`;
}

/** Markers at their defects' centres, each moved down the card (then up) until it keeps clear of those placed before. */
export function placeMarkers(centres: readonly Point[], size = { widthMm: CARD_WIDTH_MM, heightMm: CARD_HEIGHT_MM }): Point[] {
  const placed: Point[] = [];
  const inside = (p: Point): Point => ({
    x: Math.min(Math.max(p.x, MARKER_INSET_MM), size.widthMm - MARKER_INSET_MM),
    y: Math.min(Math.max(p.y, MARKER_INSET_MM), size.heightMm - MARKER_INSET_MM),
  });
  const clear = (p: Point) => placed.every((q) => Math.hypot(p.x - q.x, p.y - q.y) >= MARKER_GAP_MM);
  for (const centre of centres) {
    const start = inside(centre);
    let spot = start;
    for (let step = 1; !clear(spot) && step < 40; step++) {
      // Alternate sides and widen: down, up, right, left, further down…
      const reach = Math.ceil(step / 4) * MARKER_GAP_MM;
      const direction = step % 4;
      const offset = direction === 1 ? { x: 0, y: reach } : direction === 2 ? { x: 0, y: -reach } : direction === 3 ? { x: reach, y: 0 } : { x: -reach, y: 0 };
      spot = inside({ x: start.x + offset.x, y: start.y + offset.y });
    }
    placed.push(spot);
  }
  return placed;
}

function useWidth<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry?.contentRect.width ?? 0));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/** The flattened card from its photo, with numbered markers; `alt` is said by the button around it. */
export function MeasuredPictureMap({ photo, side }: { photo: string; side: SideMeasurement }) {
  const [frameRef, width] = useWidth<HTMLDivElement>();
  const [natural, setNatural] = useState<{ width: number; height: number } | null>(null);
  const size = measuredCardSize(side);
  const height = (width * size.heightMm) / size.widthMm;

  let transform: string | null = null;
  if (natural && width > 0) {
    // The corners were measured on the photo as decoded for measuring; the picture may be another size of it.
    const scale = natural.width / side.image.width;
    const corners = side.quad.map((p) => ({ x: p.x * scale, y: p.y * scale }));
    const solved = homography(corners, [
      { x: 0, y: 0 },
      { x: width, y: 0 },
      { x: width, y: height },
      { x: 0, y: height },
    ]);
    transform = solved ? matrix3d(solved) : null;
  }

  const centres = side.defects.map((d) => ({ x: d.box.x + d.box.width / 2, y: d.box.y + d.box.height / 2 }));
  const markers = placeMarkers(centres, size);
  const frame = side.centering.measurable ? side.centering.innerFrame : null;

  return (
    <div ref={frameRef} className="relative w-full overflow-hidden rounded-lg bg-muted" style={{ aspectRatio: `${size.widthMm} / ${size.heightMm}` }} data-testid="measured-map">
      <img
        src={photo}
        alt=""
        draggable={false}
        onLoad={(event) => setNatural({ width: event.currentTarget.naturalWidth, height: event.currentTarget.naturalHeight })}
        className="absolute left-0 top-0 max-w-none origin-top-left"
        style={{ width: natural?.width, height: natural?.height, transform: transform ?? undefined, visibility: transform ? 'visible' : 'hidden' }}
      />
      <svg viewBox={`0 0 ${size.widthMm} ${size.heightMm}`} preserveAspectRatio="none" className="absolute inset-0 size-full" aria-hidden>
        {frame ? (
          <rect
            x={frame.left}
            y={frame.top}
            width={frame.right - frame.left}
            height={frame.bottom - frame.top}
            fill="none"
            stroke="#06b6d4"
            strokeWidth={0.45}
            strokeDasharray="1.6 1"
          />
        ) : null}
        {markers.map((marker, index) => {
          const centre = centres[index]!;
          const moved = Math.hypot(marker.x - centre.x, marker.y - centre.y) > MARKER_RADIUS_MM;
          return (
            <g key={index} data-testid="measured-map-marker">
              {moved ? <line x1={centre.x} y1={centre.y} x2={marker.x} y2={marker.y} stroke="#ef4444" strokeWidth={0.45} /> : null}
              {moved ? <circle cx={centre.x} cy={centre.y} r={0.9} fill="#ef4444" /> : null}
              <circle cx={marker.x} cy={marker.y} r={MARKER_RADIUS_MM} fill="#ffffff" fillOpacity={0.94} stroke="#ef4444" strokeWidth={0.6} />
              <text x={marker.x} y={marker.y} textAnchor="middle" dominantBaseline="central" fontSize={4} fontWeight="bold" fill="#0f172a">
                {index + 1}
              </text>
            </g>
          );
        })}
      </svg>
    </div>
  );
}

/** What the map's lines and numbers mean, in text: the borders and ratios, and each numbered defect. */
export function MeasuredPictureLegend({ side }: { side: SideMeasurement }) {
  const { centering } = side;
  return (
    <div className="grid gap-2 text-sm" data-testid="measured-map-legend">
      {centering.measurable ? (
        <p className="text-muted-foreground">
          <span className="font-medium text-foreground">Borders</span> (dashed): left / right {formatMm(centering.leftMm)} / {formatMm(centering.rightMm)} (
          {sharesInReadingOrder(centering.horizontal.ratio, centering.leftMm, centering.rightMm)}), top / bottom {formatMm(centering.topMm)} /{' '}
          {formatMm(centering.bottomMm)} ({sharesInReadingOrder(centering.vertical.ratio, centering.topMm, centering.bottomMm)})
        </p>
      ) : (
        <p className="text-muted-foreground">
          Centering not measurable ({centering.reason}).{measuredAxisText(centering) ? ` ${measuredAxisText(centering)}` : ''}
        </p>
      )}
      {side.defects.length === 0 ? (
        <p className="text-muted-foreground">No defects found.</p>
      ) : (
        <ol className="grid gap-1" aria-label="Numbered defects on the picture">
          {side.defects.map((defect, index) => (
            <li key={index} className="flex items-baseline gap-2">
              <span className="flex size-5 shrink-0 items-center justify-center self-center rounded-full border-2 border-red-500 text-xs font-bold" aria-hidden>
                {index + 1}
              </span>
              <span>
                <span className="sr-only">{index + 1}. </span>
                {defectName(defect.kind)} · {defectSize(defect)}
              </span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
