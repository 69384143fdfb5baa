import { ImageOff, Lightbulb, TriangleAlert } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useObjectUrl } from '@/lib/use-object-url';
import type { Refusal } from '../refusal';

const SIDE_NAME = { front: 'Front', back: 'Back' } as const;

/**
 * A refused photo, in place under the photos: the user's own picture with the card's outline as the engine found it
 * and the side cut off by the photo's edge marked, the resolution reached against the one needed, the server's
 * sentence and one tip for the retake. It stays until the photo changes.
 */
export function RefusalPanel({ refusal }: { refusal: Refusal }) {
  const { details } = refusal;
  const cut = details?.cutSides ?? [];
  const panel = useRef<HTMLElement>(null);
  // The form comes back in place of the loader: focus goes to what went wrong, not to the top of the page.
  useEffect(() => panel.current?.focus(), []);
  return (
    <section
      ref={panel}
      tabIndex={-1}
      aria-labelledby="refusal-title"
      data-testid="refusal"
      data-code={refusal.code}
      className="grid gap-4 rounded-xl border border-destructive/40 bg-destructive/5 p-4 outline-none focus-visible:ring-2 focus-visible:ring-ring sm:grid-cols-[minmax(0,14rem)_1fr]"
    >
      <RefusedPhoto refusal={refusal} />
      <div className="grid content-start gap-3 text-sm">
        <h3 id="refusal-title" className="flex items-center gap-2 text-base font-semibold">
          <TriangleAlert className="size-5 text-destructive" aria-hidden />
          {SIDE_NAME[refusal.side]} photo not graded
        </h3>
        <p>{refusal.message}</p>
        {details ? (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
            {details.pxPerMm !== null ? (
              <>
                <dt className="text-muted-foreground">Resolution</dt>
                <dd data-testid="refusal-resolution">
                  {details.pxPerMm.toFixed(1)} px/mm reached{details.neededPxPerMm !== null ? `, ${details.neededPxPerMm} px/mm needed` : ''}
                </dd>
              </>
            ) : null}
            {cut.length > 0 ? (
              <>
                <dt className="text-muted-foreground">Cut off</dt>
                <dd data-testid="refusal-cut">{cut.map((side) => `${side} edge`).join(', ')}</dd>
              </>
            ) : null}
            <dt className="text-muted-foreground">Photo</dt>
            <dd>
              {details.photo.width} × {details.photo.height} px
            </dd>
          </dl>
        ) : null}
        <p className="flex gap-2 rounded-lg bg-background p-3">
          <Lightbulb className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden />
          <span>
            <span className="font-medium">For the retake: </span>
            {refusal.tip}
          </span>
        </p>
      </div>
    </section>
  );
}

function RefusedPhoto({ refusal }: { refusal: Refusal }) {
  const file = refusal.photo && 'file' in refusal.photo ? refusal.photo.file : null;
  const objectUrl = useObjectUrl(file);
  const src = refusal.photo && 'url' in refusal.photo ? refusal.photo.url : objectUrl;
  const [broken, setBroken] = useState(false);
  useEffect(() => setBroken(false), [src]);
  const { details } = refusal;
  const width = details?.photo.width ?? 63;
  const height = details?.photo.height ?? 88;
  const outline = details?.outline ?? null;
  const cut = details?.cutSides ?? [];
  const stroke = Math.max(width, height) / 120;
  const description = [
    `${SIDE_NAME[refusal.side]} photo as sent`,
    outline ? 'with the card’s outline as found' : 'no card outline found',
    cut.length > 0 ? `the ${cut.join(' and ')} edge marked where the card is cut off` : null,
  ]
    .filter(Boolean)
    .join(', ');
  return (
    <figure className="mx-auto w-full max-w-56">
      <div className="relative w-full overflow-hidden rounded-lg bg-muted" style={{ aspectRatio: `${width} / ${height}` }} role="img" aria-label={description}>
        {src && !broken ? (
          <img src={src} alt="" onError={() => setBroken(true)} className="absolute inset-0 size-full object-fill" />
        ) : (
          <span className="absolute inset-0 flex flex-col items-center justify-center gap-1 p-2 text-center text-xs text-muted-foreground">
            <ImageOff className="size-5" aria-hidden />
            {file ? `No preview for ${file.name}` : 'No preview'}
          </span>
        )}
        {details ? (
          <svg viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" className="absolute inset-0 size-full" aria-hidden data-testid="refusal-overlay">
            {outline ? (
              <polygon
                data-testid="refusal-outline"
                points={outline.map((p) => `${p.x},${p.y}`).join(' ')}
                fill="rgb(245 158 11 / 0.15)"
                stroke="rgb(245 158 11)"
                strokeWidth={stroke}
                strokeLinejoin="round"
              />
            ) : null}
            {cut.map((side) => {
              const t = stroke * 2.5;
              const band = { top: [0, 0, width, t], bottom: [0, height - t, width, t], left: [0, 0, t, height], right: [width - t, 0, t, height] }[side];
              return <rect key={side} data-testid={`refusal-cut-${side}`} x={band[0]} y={band[1]} width={band[2]} height={band[3]} fill="rgb(220 38 38 / 0.9)" />;
            })}
          </svg>
        ) : null}
      </div>
      {cut.length > 0 ? (
        <figcaption className="mt-1 text-center text-xs text-muted-foreground">
          <span className="font-medium text-destructive">Red band</span>: the photo’s edge that cuts the card off
        </figcaption>
      ) : outline ? (
        <figcaption className="mt-1 text-center text-xs text-muted-foreground">The card as the grader found it</figcaption>
      ) : null}
    </figure>
  );
}
