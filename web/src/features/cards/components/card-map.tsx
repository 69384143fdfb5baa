import { measuredCardSize } from '@contracts/measurement';
import type { SideMeasurement } from '@contracts/measurement';
import { formatMm } from '../grade-format';

// Defects smaller than this are still drawn this big, so a 0.3 mm nick shows as a box one can see.
const MIN_BOX_MM = 3;

/**
 * The flattened card as the engine saw it, to scale: the outline, the inner border lines it found, the border
 * widths in mm around it, and a numbered box on each defect (the numbers of the defect list).
 */
export function CardMap({ side }: { side: SideMeasurement }) {
  const { centering, defects } = side;
  // The card's own format's size: a vintage card is drawn its own shape.
  const { widthMm: CARD_WIDTH_MM, heightMm: CARD_HEIGHT_MM } = measuredCardSize(side);
  const radius = side.cornerStyle === 'rounded' ? 3 : 0;
  const sideName = side.side === 'front' ? 'Front' : 'Back';
  const bordersText = centering.measurable
    ? `borders left ${formatMm(centering.leftMm)}, right ${formatMm(centering.rightMm)}, top ${formatMm(centering.topMm)}, bottom ${formatMm(centering.bottomMm)}`
    : 'borders not measurable';
  const description = `${sideName} map: ${bordersText}; ${defects.length === 0 ? 'no defects' : `${defects.length} numbered defect box${defects.length === 1 ? '' : 'es'}`}.`;

  const widthLabel = (mm: number | undefined) => (mm === undefined ? '' : formatMm(mm));
  const m = centering.measurable ? centering : undefined;

  return (
    <div className="grid grid-cols-[auto_minmax(0,1fr)_auto] items-center gap-x-2 gap-y-1 text-[0.7rem] font-medium tabular-nums text-muted-foreground">
      <span />
      <span className="text-center">{widthLabel(m?.topMm)}</span>
      <span />
      <span className="text-right">{widthLabel(m?.leftMm)}</span>
      <svg viewBox={`-1 -1 ${CARD_WIDTH_MM + 2} ${CARD_HEIGHT_MM + 2}`} role="img" aria-label={description} className="mx-auto w-full max-w-52">
        <rect x={0} y={0} width={CARD_WIDTH_MM} height={CARD_HEIGHT_MM} rx={radius} className="fill-muted stroke-foreground/60" strokeWidth={0.4} />
        {m ? (
          <rect
            x={m.innerFrame.left}
            y={m.innerFrame.top}
            width={m.innerFrame.right - m.innerFrame.left}
            height={m.innerFrame.bottom - m.innerFrame.top}
            className="fill-card stroke-primary"
            strokeWidth={0.4}
            strokeDasharray="1.2 0.8"
          />
        ) : null}
        {defects.map((defect, index) => {
          const width = Math.max(defect.box.width, MIN_BOX_MM);
          const height = Math.max(defect.box.height, MIN_BOX_MM);
          const x = Math.min(Math.max(defect.box.x + defect.box.width / 2 - width / 2, 0), CARD_WIDTH_MM - width);
          const y = Math.min(Math.max(defect.box.y + defect.box.height / 2 - height / 2, 0), CARD_HEIGHT_MM - height);
          const labelY = y > 7 ? y - 1.2 : y + height + 5.2;
          return (
            <g key={`${defect.kind}-${index}`}>
              <rect x={x} y={y} width={width} height={height} className="fill-red-500/15 stroke-red-600" strokeWidth={0.5} />
              <text x={Math.min(x, CARD_WIDTH_MM - 4)} y={labelY} className="fill-red-700 font-bold" fontSize={5}>
                {index + 1}
              </text>
            </g>
          );
        })}
      </svg>
      <span>{widthLabel(m?.rightMm)}</span>
      <span />
      <span className="text-center">{widthLabel(m?.bottomMm)}</span>
      <span />
    </div>
  );
}
