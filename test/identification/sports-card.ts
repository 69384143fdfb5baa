import sharp from 'sharp';
import type { CardPicture } from '../../src/infra/identification/card-identifier.ts';
import { PICTURE_PX_PER_MM } from '../../src/vision/flatten.ts';

// A drawn sports card (issue 32), flattened as the grading service hands it over: a white border, a photo-like
// picture, the brand at the top, and a dark banner under the picture with the player in white and the team and
// position under it, then the copyright line with the year at the foot. Lettering as a 1989 Upper Deck baseball
// card prints it.

const PX_PER_MM = 20;

export interface DrawnSportsCard {
  player: string;
  team: string;
  position: string;
  brand: string;
  year: string;
}

export async function renderSportsCard(card: DrawnSportsCard): Promise<CardPicture> {
  const mm = (value: number) => (value * PX_PER_MM).toFixed(1);
  const font = 'DejaVu Sans';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${mm(63)}" height="${mm(88)}">
  <rect width="100%" height="100%" fill="#fbfbf8"/>
  <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#6ea6d8"/><stop offset="1" stop-color="#3f7d3a"/></linearGradient></defs>
  <rect x="${mm(3)}" y="${mm(3)}" width="${mm(57)}" height="${mm(62)}" fill="url(#sky)"/>
  <ellipse cx="${mm(31)}" cy="${mm(40)}" rx="${mm(9)}" ry="${mm(20)}" fill="#e9e4dc"/>
  <circle cx="${mm(31)}" cy="${mm(18)}" r="${mm(5)}" fill="#c98f6b"/>
  <text x="${mm(6)}" y="${mm(9)}" font-family="${font}" font-weight="bold" font-style="italic" font-size="${mm(3.2)}" fill="#ffffff">${card.brand}</text>
  <rect x="${mm(3)}" y="${mm(65)}" width="${mm(57)}" height="${mm(11)}" fill="#1b2a4a"/>
  <text x="${mm(6)}" y="${mm(70.2)}" font-family="${font}" font-weight="bold" font-size="${mm(3.6)}" fill="#ffffff">${card.player}</text>
  <text x="${mm(6)}" y="${mm(74.6)}" font-family="${font}" font-weight="bold" font-size="${mm(2.4)}" fill="#ffd54a">${card.team} · ${card.position}</text>
  <text x="${mm(6)}" y="${mm(85.2)}" font-family="${font}" font-size="${mm(1.6)}" fill="#333333">© ${card.year} The ${card.brand} Company</text>
</svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .blur(0.7)
    .removeAlpha()
    .resize({ width: Math.round(63 * PICTURE_PX_PER_MM), height: Math.round(88 * PICTURE_PX_PER_MM), fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { image: { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, channels: 3 } };
}
