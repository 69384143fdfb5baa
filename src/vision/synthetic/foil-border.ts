import type { CardSize } from '../card-formats.ts';

// Metallic borders (issue 31): since Scarlet & Violet (2023) every English Pokémon card has a silver border, Sun &
// Moon's full-art GX cards a thin silver frame round the art with a dark printed line at its inside, and many
// Japanese holos a rainbow-foil border. On white paper, a white desk or light wood such a border is close to the
// background's own lightness, while the printed frame inside it is a strong, dark, card-shaped line: the card must
// be found at its cut, not at that frame.

/** How a border's ink looks: flat colour (default), brushed silver foil, or a pale rainbow foil. */
export type BorderFinish = 'flat' | 'silver' | 'rainbow-foil';

/**
 * Silver foil in a phone photo: a light grey, a little blue, its sheen a soft band lighter and darker across the card
 * as the lamp's reflection moves over it (some 35 levels from its darkest to its lightest, its lightest a few levels short of white paper).
 */
const SILVER_STOPS = ['#c6cad0', '#e2e4e8', '#d0d4da', '#eaecef', '#cacdd3'];
/** A rainbow foil's hues, pale: the foil's own lightness is as near white paper as silver's. */
const RAINBOW_STOPS = ['#e2c4d2', '#c8d4ea', '#c6e2d0', '#e6dcb8', '#dcc8e6'];
/**
 * Foil's grain: fine brushed streaks along the card's long side, a few levels either way (feTurbulence stretched
 * along y), which flat paper does not have.
 */
const GRAIN_FREQUENCY = '1.6 0.08';
const GRAIN_OPACITY = 0.18;

const f = (value: number) => Number(value.toFixed(4)).toString();

/**
 * SVG (mm, card coordinates) filling the whole card with the finish's foil: a sheen gradient corner to corner and its
 * grain. Drawn under the art, so it shows only in the border. Empty for a flat border.
 */
export function foilBorderSvg(finish: BorderFinish, size: CardSize): string {
  if (finish === 'flat') return '';
  const stops = finish === 'silver' ? SILVER_STOPS : RAINBOW_STOPS;
  const w = size.widthMm;
  const h = size.heightMm;
  const gradient = stops.map((colour, i) => `<stop offset="${f(i / (stops.length - 1))}" stop-color="${colour}"/>`).join('');
  return [
    '<defs>',
    `<linearGradient id="foil-sheen" gradientUnits="userSpaceOnUse" x1="0" y1="0" x2="${f(w)}" y2="${f(h)}">${gradient}</linearGradient>`,
    `<filter id="foil-grain" x="0" y="0" width="1" height="1" filterUnits="objectBoundingBox"><feTurbulence type="fractalNoise" baseFrequency="${GRAIN_FREQUENCY}" numOctaves="2" seed="7"/><feColorMatrix type="saturate" values="0"/></filter>`,
    '</defs>',
    `<rect x="-1" y="-1" width="${f(w + 2)}" height="${f(h + 2)}" fill="url(#foil-sheen)"/>`,
    `<rect x="-1" y="-1" width="${f(w + 2)}" height="${f(h + 2)}" filter="url(#foil-grain)" opacity="${GRAIN_OPACITY}"/>`,
  ].join('');
}

/**
 * The printed frame at the inside of the border (Sun & Moon full-arts, many Japanese cards): a dark line `widthMm`
 * wide just inside the border's inner edge, round the art.
 */
export function innerFrameSvg(art: { x: number; y: number; width: number; height: number }, widthMm: number, colour: string): string {
  return `<rect x="${f(art.x + widthMm / 2)}" y="${f(art.y + widthMm / 2)}" width="${f(art.width - widthMm)}" height="${f(art.height - widthMm)}" fill="none" stroke="${colour}" stroke-width="${f(widthMm)}"/>`;
}
