import sharp from 'sharp';
import type { CardPicture } from '../../src/infra/identification/card-identifier.ts';
import { PICTURE_PX_PER_MM } from '../../src/vision/flatten.ts';

// A flattened trading card with real lettering, drawn with sharp from SVG at 20 px/mm: a coloured border,
// a name band (name and HP), seeded art, an attack box, and a bottom line with illustrator and collector number.
// Then what a photo does to it: a little blur and JPEG at quality 85.

export const PX_PER_MM = 20;
const WIDTH = 63 * PX_PER_MM;
const HEIGHT = 88 * PX_PER_MM;
const BORDER_MM = 3;

export interface NamedCard {
  name: string;
  number: string;
  font?: 'DejaVu Sans' | 'Liberation Sans' | 'DejaVu Serif';
  borderColor?: string;
  bandColor?: string;
  seed?: number;
  /**
   * vintage (default): the number alone at the bottom right, "58/102". modern: at the bottom left, after the
   * regulation mark in its box and the set code when the card has them ("G SVI EN 058/198"), as Scarlet & Violet
   * prints it (Sun & Moon printed neither).
   */
  layout?: 'vintage' | 'modern';
  setCode?: string;
  regulationMark?: string;
  /** The attacks printed (default one "Thunder Jolt" of random damage, over a line of rules text). */
  attacks?: { name: string; damage: string }[];
  illustrator?: string;
  hp?: number;
  /**
   * A full-art face (issue 32): the picture over the whole card, every word in white over it (name, HP, attacks,
   * illustrator, number), as Sun & Moon's full-art GX cards print them.
   */
  fullArt?: boolean;
}

function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/'/g, '&apos;');

function defaultAttack(font: string, mm: (value: number) => string, next: () => number): string {
  return `<text x="${mm(7)}" y="${mm(59)}" font-family="${font}" font-weight="bold" font-size="${mm(2.6)}" fill="#222">Thunder Jolt</text>
  <text x="${mm(56)}" y="${mm(59)}" text-anchor="end" font-family="${font}" font-weight="bold" font-size="${mm(2.6)}" fill="#222">${10 * (2 + Math.floor(next() * 9))}</text>
  <text x="${mm(7)}" y="${mm(64)}" font-family="${font}" font-size="${mm(1.8)}" fill="#333">Flip a coin. If tails, this card does 10 damage to itself.</text>`;
}

function drawnAttacks(attacks: NonNullable<NamedCard['attacks']>, font: string, mm: (value: number) => string): string {
  return attacks
    .map(
      (attack, i) => `<text x="${mm(7)}" y="${mm(58 + 7 * i)}" font-family="${font}" font-weight="bold" font-size="${mm(2.6)}" fill="#222">${escape(attack.name)}</text>
  <text x="${mm(56)}" y="${mm(58 + 7 * i)}" text-anchor="end" font-family="${font}" font-weight="bold" font-size="${mm(2.6)}" fill="#222">${escape(attack.damage)}</text>`,
    )
    .join('');
}

function vintageFoot(card: NamedCard, font: string, mm: (value: number) => string): string {
  const inner = BORDER_MM;
  return `<text x="${mm(inner + 2)}" y="${mm(88 - inner - 1.4)}" font-family="${font}" font-size="${mm(1.7)}" fill="#1a1a1a">Illus. ${escape(card.illustrator ?? 'Mitsuhiro Arita')}</text>
  <text x="${mm(63 - inner - 2)}" y="${mm(88 - inner - 1.4)}" text-anchor="end" font-family="${font}" font-weight="bold" font-size="${mm(1.9)}" fill="#1a1a1a">${escape(card.number)}</text>`;
}

/** Illustrator above, then at the bottom left: the regulation mark in its box, the set code and language, the number. */
function modernFoot(card: NamedCard, font: string, mm: (value: number) => string): string {
  const inner = BORDER_MM;
  const baseline = 88 - inner - 1.2;
  const code = card.setCode ? `${card.setCode} EN ` : '';
  const mark = card.regulationMark
    ? `<rect x="${mm(inner + 2)}" y="${mm(baseline - 1.8)}" width="${mm(2.2)}" height="${mm(2.2)}" rx="${mm(0.3)}" fill="#1a1a1a"/>
  <text x="${mm(inner + 3.1)}" y="${mm(baseline - 0.1)}" text-anchor="middle" font-family="${font}" font-weight="bold" font-size="${mm(1.7)}" fill="#ffffff">${escape(card.regulationMark)}</text>`
    : '';
  return `<text x="${mm(inner + 2)}" y="${mm(baseline - 2.6)}" font-family="${font}" font-size="${mm(1.5)}" fill="#1a1a1a">Illus. ${escape(card.illustrator ?? '5ban Graphics')}</text>
  ${mark}
  <text x="${mm(inner + (card.regulationMark ? 5.2 : 2))}" y="${mm(baseline)}" font-family="${font}" font-weight="bold" font-size="${mm(1.8)}" fill="#1a1a1a">${escape(code + card.number)}</text>`;
}

/**
 * Busy art over the whole card, from dark to light (bands and leaves from 12% to 78% lightness, so no one
 * threshold splits print from picture), and the print in white over it.
 */
function fullArtElements(card: NamedCard, font: string, mm: (value: number) => string, next: () => number): string {
  const stripes = Array.from({ length: 22 }, (_, i) => {
    const y = i * 4;
    return `<rect x="0" y="${mm(y)}" width="${WIDTH}" height="${mm(4.2)}" fill="hsl(${100 + Math.floor(next() * 60)},45%,${12 + Math.floor(next() * 58)}%)"/>`;
  }).join('');
  const leaves = Array.from({ length: 30 }, () => `<ellipse cx="${mm(next() * 63)}" cy="${mm(next() * 88)}" rx="${mm(2 + next() * 5)}" ry="${mm(1 + next() * 3)}" fill="hsl(${80 + Math.floor(next() * 80)},55%,${20 + Math.floor(next() * 58)}%)"/>`).join('');
  const white = 'fill="#fbfbf5"';
  const attacks = (card.attacks ?? [])
    .map(
      (attack, i) => `<text x="${mm(9)}" y="${mm(57 + 8 * i)}" font-family="${font}" font-weight="bold" font-size="${mm(2.8)}" ${white}>${escape(attack.name)}</text>
  <text x="${mm(56)}" y="${mm(57 + 8 * i)}" text-anchor="end" font-family="${font}" font-weight="bold" font-size="${mm(3)}" ${white}>${escape(attack.damage)}</text>`,
    )
    .join('');
  return `
  <rect width="${WIDTH}" height="${HEIGHT}" fill="#1d3a1a"/>${stripes}${leaves}
  <text x="${mm(6)}" y="${mm(9.5)}" font-family="${font}" font-weight="bold" font-size="${mm(4.4)}" ${white}>${escape(card.name)}</text>
  <text x="${mm(57)}" y="${mm(9.3)}" text-anchor="end" font-family="${font}" font-weight="bold" font-size="${mm(3)}" ${white}>HP ${card.hp ?? 100}</text>
  ${attacks}
  <text x="${mm(5)}" y="${mm(83.2)}" font-family="${font}" font-size="${mm(1.5)}" ${white}>Illus. ${escape(card.illustrator ?? '5ban Graphics')}</text>
  <text x="${mm(5)}" y="${mm(85.6)}" font-family="${font}" font-weight="bold" font-size="${mm(1.8)}" ${white}>${escape(card.number)}</text>`;
}

function cardElements(card: NamedCard): string {
  const next = random(card.seed ?? 1);
  const mm = (value: number) => (value * PX_PER_MM).toFixed(1);
  const hue = Math.floor(next() * 360);
  const blobs = Array.from({ length: 14 }, () => {
    const x = 6 + next() * 51;
    const y = 14 + next() * 34;
    const r = 2 + next() * 8;
    return `<circle cx="${mm(x)}" cy="${mm(y)}" r="${mm(r)}" fill="hsl(${Math.floor(next() * 360)},70%,${35 + Math.floor(next() * 40)}%)"/>`;
  }).join('');
  const font = card.font ?? 'DejaVu Sans';
  if (card.fullArt) return fullArtElements(card, font, mm, next);
  const drawnHp = 30 + 10 * Math.floor(next() * 20);
  const hp = card.hp ?? drawnHp;
  const inner = BORDER_MM;
  return `
  <rect width="${WIDTH}" height="${HEIGHT}" fill="${card.borderColor ?? '#f2d33c'}"/>
  <rect x="${mm(inner)}" y="${mm(inner)}" width="${mm(63 - 2 * inner)}" height="${mm(88 - 2 * inner)}" fill="hsl(${hue},35%,82%)"/>
  <rect x="${mm(inner)}" y="${mm(inner)}" width="${mm(63 - 2 * inner)}" height="${mm(7.5)}" fill="${card.bandColor ?? '#f6f1de'}"/>
  <text x="${mm(inner + 2)}" y="${mm(inner + 5.6)}" font-family="${font}" font-weight="bold" font-size="${mm(4.4)}" fill="#141414">${escape(card.name)}</text>
  <text x="${mm(63 - inner - 2)}" y="${mm(inner + 5.4)}" text-anchor="end" font-family="${font}" font-size="${mm(2.6)}" fill="#b3120e">${card.layout === 'modern' ? `HP ${hp}` : `${hp} HP`}</text>
  <rect x="${mm(6)}" y="${mm(12)}" width="${mm(51)}" height="${mm(38)}" fill="hsl(${hue},60%,55%)"/>
  <g clip-path="url(#art)">${blobs}</g>
  <clipPath id="art"><rect x="${mm(6)}" y="${mm(12)}" width="${mm(51)}" height="${mm(38)}"/></clipPath>
  <rect x="${mm(5)}" y="${mm(53)}" width="${mm(53)}" height="${mm(24)}" fill="#fbf8ee"/>
  ${card.attacks ? drawnAttacks(card.attacks, font, mm) : defaultAttack(font, mm, next)}
  ${card.layout === 'modern' ? modernFoot(card, font, mm) : vintageFoot(card, font, mm)}`;
}

export function namedCardSvg(card: NamedCard): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">${cardElements(card)}</svg>`;
}

/**
 * A photo of the card: rounded corners, on a dark table, turned by `rotationDeg`, filling about 80% of the
 * photo's height; JPEG at quality 85. For tests of the whole path, photo to identification.
 */
export async function renderNamedCardPhoto(card: NamedCard, rotationDeg = 0): Promise<Uint8Array> {
  const photoHeight = Math.round(HEIGHT / 0.8);
  const photoWidth = Math.round(photoHeight * 0.8);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${photoWidth}" height="${photoHeight}">
  <rect width="${photoWidth}" height="${photoHeight}" fill="#2b2f36"/>
  <clipPath id="outline"><rect width="${WIDTH}" height="${HEIGHT}" rx="${3 * PX_PER_MM}"/></clipPath>
  <g transform="translate(${photoWidth / 2} ${photoHeight / 2}) rotate(${rotationDeg}) translate(${-WIDTH / 2} ${-HEIGHT / 2})">
    <g clip-path="url(#outline)">${cardElements(card)}</g>
  </g>
</svg>`;
  const jpeg = await sharp(Buffer.from(svg)).blur(0.6).jpeg({ quality: 85 }).toBuffer();
  return new Uint8Array(jpeg.buffer, jpeg.byteOffset, jpeg.length);
}

/** The card as the grading service hands it to an identifier: flattened, upright, at PICTURE_PX_PER_MM. */
export async function renderNamedCard(card: NamedCard): Promise<CardPicture> {
  const jpeg = await sharp(Buffer.from(namedCardSvg(card))).blur(0.7).jpeg({ quality: 85 }).toBuffer();
  const { data, info } = await sharp(jpeg)
    .removeAlpha()
    .resize({ width: Math.round(63 * PICTURE_PX_PER_MM), height: Math.round(88 * PICTURE_PX_PER_MM), fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    image: { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, channels: 3 },
    innerFrame: { left: BORDER_MM, right: 63 - BORDER_MM, top: BORDER_MM, bottom: 88 - BORDER_MM },
  };
}

/** Names and numbers of the OCR test set: real card names with the punctuation they carry. */
export const TEST_CARDS: NamedCard[] = ([
  { name: 'Pikachu', number: '58/102' },
  { name: 'Charizard', number: '4/102', font: 'Liberation Sans' },
  { name: 'Blastoise', number: '2/102', font: 'DejaVu Serif' },
  { name: 'Mewtwo', number: '10/102', borderColor: '#c9ccd1' },
  { name: 'Gyarados', number: '6/102', bandColor: '#e4ecf7' },
  { name: 'Mr. Mime', number: '6/64', font: 'Liberation Sans' },
  { name: "Farfetch'd", number: '27/102' },
  { name: 'Dragonite', number: '4/62', font: 'DejaVu Serif' },
  { name: 'Snorlax', number: '11/64' },
  { name: 'Jigglypuff', number: '54/64', font: 'Liberation Sans' },
  { name: 'Umbreon', number: '215/203', borderColor: '#d9d9d9' },
  { name: 'Rayquaza', number: '194/203', font: 'DejaVu Serif' },
  { name: 'Greninja', number: '110/162' },
  { name: 'Lugia', number: '186/195', font: 'Liberation Sans' },
  { name: 'Machamp', number: '8/102' },
  { name: 'Alakazam', number: '1/102', font: 'DejaVu Serif' },
  { name: 'Eevee', number: '51/64', bandColor: '#fde9c8' },
  { name: 'Gengar', number: '5/62', font: 'Liberation Sans' },
  { name: 'Lapras', number: '10/62' },
  { name: 'Venusaur', number: '15/102', font: 'DejaVu Serif' },
] satisfies NamedCard[]).map((card, i): NamedCard => ({ ...card, seed: 101 + i }));
