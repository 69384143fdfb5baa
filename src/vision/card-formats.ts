import type { CardFormatId, CardFormatSummary, Point } from '../contracts/measurement.ts';

// The card formats the engine recognises (issue 30, item 3). Until these, every card was taken to be 63 × 88 mm,
// so a vintage baseball card (a 1933 Goudey is nearly square, a T206 narrow) was refused as not card-shaped, or,
// where it passed, measured at the wrong scale. A card's format is told by the shape of its outline alone (its
// aspect, width over height), the one thing a photo shows without knowing the distance to the card: the format
// then gives the millimetres, so px/mm, the flattened card's size, border widths, corner and edge measures and
// defect sizes are all in the card's own millimetres. A corner is judged against its format's die cut: a square-cut
// vintage card whose four corners are round is worn, however alike the four are.

/** A card's size in mm, upright (width the shorter side). */
export interface CardSize {
  widthMm: number;
  heightMm: number;
}

export interface CardFormat extends CardSize {
  id: CardFormatId;
  /** As a collector names it. */
  name: string;
  /** Width over height. */
  aspect: number;
  /**
   * The corner radii the format's dies cut, mm: 0 for a square cut. The 63 × 88 mm format is cut both ways (the
   * card games' 3 mm arc, most sports cards square), so its card's own corners tell which; every other format has one.
   */
  dieCutRadiiMm: readonly number[];
  /** Which cards, and where the size comes from. */
  about: string;
}

const INCH_MM = 25.4;

function format(id: CardFormatId, name: string, widthMm: number, heightMm: number, dieCutRadiiMm: readonly number[], about: string): CardFormat {
  return { id, name, widthMm: round2(widthMm), heightMm: round2(heightMm), aspect: widthMm / heightMm, dieCutRadiiMm, about };
}

const round2 = (mm: number) => Math.round(mm * 100) / 100;

/** Pokémon, Magic and modern sports cards: 63 × 88 mm (2½ × 3½ in), the games' 3 mm corners or a sports card's square ones. */
export const STANDARD_FORMAT = format(
  'standard',
  'Standard (Pokémon, Magic, modern sports)',
  63,
  88,
  [0, 3],
  'Trading-card games print on 63 × 88 mm with corners rounded to a 3 mm arc; sports cards since 1957 are 2½ × 3½ in (63.5 × 88.9 mm, the same card within a millimetre), most of them cut square.',
);

/** Every format recognised, the common one first: where two fit a photo equally, the first is taken (formatForAspect). */
export const CARD_FORMATS: readonly CardFormat[] = [
  STANDARD_FORMAT,
  format('japanese-small', 'Japanese small size', 59, 86, [3], 'Yu-Gi-Oh! and other Japanese games print on 59 × 86 mm, with rounded corners like the other card games.'),
  format('t206', 'T206 (1909–11)', (1 + 7 / 16) * INCH_MM, (2 + 5 / 8) * INCH_MM, [0], 'The tobacco cards of 1909–11: 1 7⁄16 × 2 5⁄8 in, cut square.'),
  format('goudey-1933', '1933 Goudey', (2 + 3 / 8) * INCH_MM, (2 + 7 / 8) * INCH_MM, [0], "Goudey's gum cards of 1933–41: 2 3⁄8 × 2 7⁄8 in, cut square."),
  format('bowman-1948', '1948–50 Bowman', (2 + 1 / 16) * INCH_MM, (2 + 1 / 2) * INCH_MM, [0], "Bowman's first cards, 1948–50: 2 1⁄16 × 2 1⁄2 in, cut square. Nearly the shape of a 1933 Goudey (0.825 against 0.826), so a photo cannot tell them apart: the nearer shape is taken, and its size is then 15% off if it is the other."),
  format('bowman-1951', '1951 Bowman', (2 + 1 / 16) * INCH_MM, (3 + 1 / 8) * INCH_MM, [0], "Bowman's 1951 cards: 2 1⁄16 × 3 1⁄8 in, cut square."),
  format('topps-1952', '1952–56 Topps', (2 + 5 / 8) * INCH_MM, (3 + 3 / 4) * INCH_MM, [0], "Topps's large cards of 1952–56: 2 5⁄8 × 3 3⁄4 in, cut square. Their shape (0.700) is within FORMAT_TIE of 63 × 88 mm (0.716), so a photo takes one for a 63 × 88 card unless its outline reads further off."),
];

/** A set of formats a search accepts: the common one alone first, every one when that finds no card (find-card.ts). */
export type FormatSet = readonly CardFormat[];
export const COMMON_FORMATS: FormatSet = [STANDARD_FORMAT];

/**
 * How far a found outline's aspect may be from its format's: a card photographed by hand is seldom square to the
 * camera, and a tilt of about 15° foreshortens one side by 1 − cos 15° ≈ 3.5% (0.025 of a 0.716 aspect), plus the
 * outline's fit of a few tenths of a millimetre per side.
 */
export const ASPECT_TOLERANCE = 0.035;
/**
 * Within this much of the best fitting format's aspect, the common 63 × 88 mm one is taken: how far from a card's own
 * aspect its found outline reads in ordinary photos. A card photographed within about 13° of straight on reads within
 * 1 − cos 13° ≈ 2.6% (0.019 of 0.716), and so do the graders' own scans, whose outline is often the holder's well a
 * millimetre or so round the card: 63 × 88 mm Pokémon cards in PSA's scans read 0.683 to 0.701. So a 1952 Topps
 * (0.700) is not told from a 63 × 88 card by its shape, and is measured as one; the Japanese size (0.686) is told
 * where its outline reads below about 0.689, the vintage sizes further off (0.548, 0.660, 0.825) always.
 */
export const FORMAT_TIE = 0.02;

/** Width over height, whichever way up: a card lying sideways is still a card. */
export function upright(aspect: number): number {
  return aspect > 1 ? 1 / aspect : aspect;
}

/**
 * The format of `formats` a found outline of this aspect is: the one whose aspect is nearest, unless 63 × 88 mm is
 * within FORMAT_TIE of it; null when none is within ASPECT_TOLERANCE (not card-shaped).
 */
export function formatForAspect(aspect: number, formats: FormatSet = CARD_FORMATS): CardFormat | null {
  const a = upright(aspect);
  const fitting = formats.filter((f) => Math.abs(a - f.aspect) <= ASPECT_TOLERANCE);
  if (fitting.length === 0) return null;
  const nearest = Math.min(...fitting.map((f) => Math.abs(a - f.aspect)));
  if (fitting.includes(STANDARD_FORMAT) && Math.abs(a - STANDARD_FORMAT.aspect) <= nearest + FORMAT_TIE) return STANDARD_FORMAT;
  return fitting.find((f) => Math.abs(a - f.aspect) === nearest)!;
}

/** Whether an outline of this aspect is the shape of a card of one of `formats`. */
export function isCardAspect(aspect: number, formats: FormatSet = CARD_FORMATS): boolean {
  return formatForAspect(aspect, formats) !== null;
}

/** Width over height of a quad (clockwise from top-left), from the mean lengths of its opposite sides. */
export function quadAspect(quad: readonly Point[]): number {
  const [tl, tr, br, bl] = quad as [Point, Point, Point, Point];
  const d = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);
  return (d(tl, tr) + d(bl, br)) / (d(tl, bl) + d(tr, br));
}

/** The format of `formats` a quad's shape says it is, or the common 63 × 88 mm one for a quad that is no card's shape. */
export function formatOfQuad(quad: readonly Point[], formats: FormatSet = CARD_FORMATS): CardFormat {
  return formatForAspect(quadAspect(quad), formats) ?? STANDARD_FORMAT;
}

/** The narrowest width of `formats`: the shortest straight side a card of them can have. */
export function narrowestWidthMm(formats: FormatSet): number {
  return Math.min(...formats.map((f) => f.widthMm));
}

/** The upright card's corners in mm, clockwise from top-left: with its quad in a photo, the card's homography. */
export function cardCornersMm(size: CardSize): Point[] {
  return [
    { x: 0, y: 0 },
    { x: size.widthMm, y: 0 },
    { x: size.widthMm, y: size.heightMm },
    { x: 0, y: size.heightMm },
  ];
}

/** What a result says about the format found. */
export function formatSummary(format: CardFormat): CardFormatSummary {
  return { id: format.id, name: format.name, widthMm: format.widthMm, heightMm: format.heightMm };
}
