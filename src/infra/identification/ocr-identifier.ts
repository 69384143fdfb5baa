import { access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { createWorker, OEM, PSM } from 'tesseract.js';
import type { Page, Worker } from 'tesseract.js';
import type { Identification } from '../../contracts/grading.ts';
import type { CardIdentifier, CardPicture } from './card-identifier.ts';
import { pictureCardSize, unidentified } from './card-identifier.ts';
import { growRegion } from '../../vision/regions.ts';
import { cardsToCheckByNumber, catalogIdentification, evidencePhrases, identifyCard, matchByNumberFit, offeredCandidate, MAX_OFFERED, printedNumber, SURE_CONFIDENCE, type Catalog, type Identified } from '../../domain/catalog/index.ts';
import { shippedCatalog } from '../catalog/index.ts';
import { fitPrintedNumbers } from './number-check.ts';
import { sportsCardFromLines } from './sports-text.ts';
import { collectorNumberFromText, nameCandidates, nameFromWords, regulationMarkFromText, setCodesFromText } from './ocr-text.ts';
import type { ReadWord } from './ocr-text.ts';

// Offline identification: tesseract (WASM) reads the name band and the collector number off the flattened card.
// The language data comes from the installed @tesseract.js-data/eng package; nothing is ever downloaded
// (a local langPath, cacheMethod 'none'). One worker, made on first use, serves every card.
// Layout read: trading-card-game cards (Pokémon, Magic, Yu-Gi-Oh): name at the top left, number at the bottom.

const require = createRequire(import.meta.url);
/** LSTM-only integer model: the smaller, more accurate data for the LSTM engine. */
export const ENGLISH_LANG_PATH = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

const OCR_WORKER = fileURLToPath(new URL('./ocr-worker.ts', import.meta.url));

interface RegionMm {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Pixels per mm the crops are read at: tesseract likes capitals 20-40 px tall. */
const NAME_READ_PX_PER_MM = 9;
/** The collector-number line and the illustrator beside or above it: print 1.2 to 1.8 mm tall, enlarged most. */
const NUMBER_READ_PX_PER_MM = 16;
/** Attack and ability names are printed 2.5 to 3 mm tall: 7 px/mm gives tesseract capitals of about 20 px. */
const ATTACK_READ_PX_PER_MM = 7;
const DEFAULT_BORDER_MM = 3;
const NAME_BAND_HEIGHT_MM = 7.5;
const NUMBER_BAND_HEIGHT_MM = 6.5;
const PADDING_PX = 12;

function nameBand(picture: CardPicture): RegionMm {
  const { widthMm, heightMm } = pictureCardSize(picture);
  const frame = picture.innerFrame ?? { left: DEFAULT_BORDER_MM, right: widthMm - DEFAULT_BORDER_MM, top: DEFAULT_BORDER_MM, bottom: heightMm - DEFAULT_BORDER_MM };
  return { left: frame.left + 0.4, right: frame.right - 0.4, top: frame.top + 0.3, bottom: frame.top + 0.3 + NAME_BAND_HEIGHT_MM };
}

/** The number sits in the last few millimetres inside the border, or on the border itself. */
function numberBand(picture: CardPicture): RegionMm {
  const { widthMm, heightMm } = pictureCardSize(picture);
  const bottom = picture.innerFrame?.bottom ?? heightMm - DEFAULT_BORDER_MM;
  return { left: 1, right: widthMm - 1, top: bottom - NUMBER_BAND_HEIGHT_MM, bottom: Math.min(heightMm - 0.5, bottom + 2) };
}

/**
 * The attack block: from under the art (about 48 mm down the card on every layout since 1999) to the number band,
 * where the attack and ability names, their damage and the weakness row stand (and, on many sports cards, the
 * player's banner with the team and position). Not to the foot: the number band is read already, and reading it
 * twice would cost a third more.
 */
const ATTACK_BLOCK_TOP_MM = 48;
function attackBlock(picture: CardPicture): RegionMm {
  const { widthMm } = pictureCardSize(picture);
  return { left: 3, right: widthMm - 3, top: ATTACK_BLOCK_TOP_MM, bottom: numberBand(picture).top };
}

/** Otsu's threshold over a grey histogram. */
export function otsuThreshold(grey: Uint8Array): number {
  const histogram = new Float64Array(256);
  for (let i = 0; i < grey.length; i++) histogram[grey[i]!]!++;
  const total = grey.length;
  let sumAll = 0;
  for (let i = 0; i < 256; i++) sumAll += i * histogram[i]!;
  let sumBelow = 0;
  let countBelow = 0;
  let best = 0;
  let threshold = 127;
  for (let t = 0; t < 256; t++) {
    countBelow += histogram[t]!;
    if (countBelow === 0) continue;
    const countAbove = total - countBelow;
    if (countAbove === 0) break;
    sumBelow += t * histogram[t]!;
    const meanBelow = sumBelow / countBelow;
    const meanAbove = (sumAll - sumBelow) / countAbove;
    const between = countBelow * countAbove * (meanBelow - meanAbove) ** 2;
    if (between > best) {
      best = between;
      threshold = t;
    }
  }
  return threshold;
}

/** Black lettering on white: tesseract's page layout trips over coloured bands and frames. */
export function binarise(grey: Uint8Array): Uint8Array {
  const threshold = otsuThreshold(grey);
  let dark = 0;
  for (let i = 0; i < grey.length; i++) if (grey[i]! <= threshold) dark++;
  const lightText = dark > grey.length / 2; // text is the minority: mostly dark means light lettering
  const out = new Uint8Array(grey.length);
  for (let i = 0; i < grey.length; i++) out[i] = (grey[i]! <= threshold) !== lightText ? 0 : 255;
  return out;
}

/**
 * A regulation mark is printed as a light letter in a dark rounded square: binarised, a dark square with a
 * letter-shaped hole, which tesseract does not read. Each such square (a dark blob 1.4 to 3.2 mm a side, about as
 * wide as tall, with light inside it) is turned over within its outline: the square light, the letter dark, like the
 * lettering beside it. A solid blob (a rarity symbol) has nothing inside and is left alone. Returns how many were turned.
 */
export function lightenMarkBoxes(pixels: Uint8Array, width: number, height: number, pxPerMm: number): number {
  const blobOf = new Int32Array(pixels.length); // 0: not yet reached; else the dark blob's number
  const stack = new Int32Array(pixels.length);
  const [minSide, maxSide] = [1.4 * pxPerMm, 3.2 * pxPerMm];
  let blobs = 0;
  let turned = 0;
  for (let start = 0; start < pixels.length; start++) {
    if (pixels[start] !== 0 || blobOf[start] !== 0) continue;
    const blob = ++blobs;
    let [x0, y0, x1, y1] = [width, height, 0, 0];
    let top = 0;
    stack[top++] = start;
    blobOf[start] = blob;
    while (top > 0) {
      const at = stack[--top]!;
      const x = at % width;
      const y = (at - x) / width;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      const reach = (next: number) => {
        if (pixels[next] !== 0 || blobOf[next] !== 0) return;
        blobOf[next] = blob;
        stack[top++] = next;
      };
      if (x > 0) reach(at - 1);
      if (x < width - 1) reach(at + 1);
      if (y > 0) reach(at - width);
      if (y < height - 1) reach(at + width);
    }
    const [w, h] = [x1 - x0 + 1, y1 - y0 + 1];
    if (w < minSide || h < minSide || w > maxSide || h > maxSide || w / h < 0.75 || w / h > 1.33) continue;
    // What of the box's rectangle its edge reaches without crossing the blob is outside it (the rounded corners);
    // the rest, not the blob, is the letter and its counters.
    const outside = new Uint8Array(w * h);
    const reach: number[] = [];
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++) {
        if ((x !== x0 && x !== x1 && y !== y0 && y !== y1) || blobOf[y * width + x] === blob) continue;
        outside[(y - y0) * w + x - x0] = 1;
        reach.push(x, y);
      }
    while (reach.length > 0) {
      const y = reach.pop()!;
      const x = reach.pop()!;
      for (const [nx, ny] of [[x - 1, y], [x + 1, y], [x, y - 1], [x, y + 1]] as const) {
        if (nx < x0 || nx > x1 || ny < y0 || ny > y1) continue;
        const local = (ny - y0) * w + nx - x0;
        if (outside[local] || blobOf[ny * width + nx] === blob) continue;
        outside[local] = 1;
        reach.push(nx, ny);
      }
    }
    let letter = 0;
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) if (!outside[(y - y0) * w + x - x0] && blobOf[y * width + x] !== blob) letter++;
    if (letter < 0.05 * w * h) continue; // solid: a rarity symbol, not a mark
    // Turned over within the outline: the square light, the letter dark, its counters light.
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) if (!outside[(y - y0) * w + x - x0]) pixels[y * width + x] = 255 - pixels[y * width + x]!;
    turned++;
  }
  return turned;
}

/** Letters are 0.9 to 4.5 mm tall in the regions read, and at most 4 mm wide (a capital M in the attack names). */
const LETTER_HEIGHT_MM = { min: 0.9, max: 4.5 };
const LETTER_MAX_WIDTH_MM = 4;
/** A region with fewer letter-sized marks than this holds no line of print to read (a blank or plain face). */
const MIN_LETTERS = 8;

const isDark = (pixel: number, pixels: Uint8Array) => pixels[pixel] === 0;

/** How many dark marks of a letter's size the black-on-white crop holds: whether it is worth tesseract's time. */
export function letterCount(pixels: Uint8Array, width: number, height: number, pxPerMm: number): number {
  const visited = new Uint8Array(pixels.length);
  const members = new Int32Array(pixels.length);
  let letters = 0;
  for (let start = 0; start < pixels.length; start++) {
    if (visited[start] !== 0 || pixels[start] !== 0) continue;
    const size = growRegion(start, width, height, 8, isDark, pixels, visited, members);
    let [x0, y0, x1, y1] = [width, height, 0, 0];
    for (let i = 0; i < size; i++) {
      const p = members[i]!;
      const x = p % width;
      const y = (p - x) / width;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
    const [w, h] = [(x1 - x0 + 1) / pxPerMm, (y1 - y0 + 1) / pxPerMm];
    if (h >= LETTER_HEIGHT_MM.min && h <= LETTER_HEIGHT_MM.max && w <= LETTER_MAX_WIDTH_MM) letters++;
  }
  return letters;
}

interface Crop {
  png: Buffer;
  /** Letter-sized marks in it (letterCount). */
  letters: number;
}

/**
 * How a crop is made black on white. `plain`: one threshold over the crop, the minority its lettering (dark print on
 * a light band, or light on dark). `light`: only what is white is lettering (every channel near the crop's
 * brightest), as full-art and holo faces print their names, attacks and numbers in white over the picture, where
 * one threshold splits the picture rather than the print.
 */
type Lettering = 'plain' | 'light';
/** White print: its weakest channel within this share of the crop's brightest white (its 99.5th percentile). */
const WHITE_SHARE = 0.82;
const BRIGHTEST_PERCENTILE = 0.995;

/** The light-lettering mask: black where every channel is near the crop's brightest white, white elsewhere. */
export function whiteLettering(rgb: Uint8Array, channels: number): Uint8Array {
  const pixels = rgb.length / channels;
  const weakest = new Uint8Array(pixels);
  const histogram = new Uint32Array(256);
  for (let i = 0; i < pixels; i++) {
    let low = 255;
    for (let c = 0; c < Math.min(3, channels); c++) low = Math.min(low, rgb[i * channels + c]!);
    weakest[i] = low;
    histogram[low]!++;
  }
  let brightest = 255;
  for (let level = 255, seen = 0; level >= 0; level--) {
    seen += histogram[level]!;
    if (seen >= (1 - BRIGHTEST_PERCENTILE) * pixels) {
      brightest = level;
      break;
    }
  }
  const threshold = WHITE_SHARE * brightest;
  const out = new Uint8Array(pixels);
  for (let i = 0; i < pixels; i++) out[i] = weakest[i]! >= threshold ? 0 : 255;
  return out;
}

async function cropForReading(picture: CardPicture, region: RegionMm, readPxPerMm: number, options: { marks?: boolean; lettering?: Lettering } = {}): Promise<Crop> {
  const { image } = picture;
  const pxPerMm = image.width / pictureCardSize(picture).widthMm;
  const left = Math.max(0, Math.round(region.left * pxPerMm));
  const top = Math.max(0, Math.round(region.top * pxPerMm));
  const width = Math.min(image.width - left, Math.round((region.right - region.left) * pxPerMm));
  const height = Math.min(image.height - top, Math.round((region.bottom - region.top) * pxPerMm));
  const light = options.lettering === 'light';
  let crop = sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
    .extract({ left, top, width, height })
    .resize({ width: Math.max(1, Math.round((width * readPxPerMm) / pxPerMm)), kernel: 'lanczos3' });
  if (!light) crop = crop.greyscale();
  const { data, info } = await crop.raw().toBuffer({ resolveWithObject: true });
  const lettering = light ? whiteLettering(data, info.channels) : binarise(data);
  if (options.marks) lightenMarkBoxes(lettering, info.width, info.height, readPxPerMm);
  const png = await sharp(lettering, { raw: { width: info.width, height: info.height, channels: 1 } })
    .extend({ top: PADDING_PX, bottom: PADDING_PX, left: PADDING_PX, right: PADDING_PX, background: '#ffffff' })
    .png({ compressionLevel: 1 })
    .toBuffer();
  const letters = letterCount(lettering, info.width, info.height, readPxPerMm);
  return { png, letters };
}

function wordsOf(page: Page): ReadWord[] {
  const words: ReadWord[] = [];
  let line = 0;
  for (const block of page.blocks ?? [])
    for (const paragraph of block.paragraphs)
      for (const textLine of paragraph.lines) {
        for (const word of textLine.words)
          words.push({ text: word.text, confidence: word.confidence, height: word.bbox.y1 - word.bbox.y0, line });
        line++;
      }
  return words;
}

/** A tesseract worker reading English from the installed data (never downloaded), sparse text at 300 dpi. */
export async function startOcrWorker(langPath = ENGLISH_LANG_PATH): Promise<Worker> {
  // tesseract.js never settles createWorker when the data cannot be loaded: make sure it is there first.
  await access(path.join(langPath, 'eng.traineddata.gz')).catch(() => {
    throw new Error(`OCR language data not found in ${langPath}: install @tesseract.js-data/eng`);
  });
  const created = await createWorker('eng', OEM.LSTM_ONLY, {
    langPath,
    // tesseract's own worker script, started below the event loop's priority.
    workerPath: OCR_WORKER,
    cacheMethod: 'none',
    gzip: true,
    // Without a handler tesseract.js throws a failed job from an event handler and takes the process down;
    // with one, the job's promise rejects and the reader answers without a reading.
    errorHandler: () => {},
  });
  await created.setParameters({ tessedit_pageseg_mode: PSM.SPARSE_TEXT, user_defined_dpi: '300' });
  return created;
}

export interface OcrIdentifierOptions {
  langPath?: string;
  /** Told when reading failed (logging); the card is then simply not identified. */
  onError?: (error: unknown) => void;
  /** What the reading is matched against; default the catalogue the project ships, null for none. */
  catalog?: Catalog | null;
}

/** Everything read off one card: the name and number as read, and what else the catalogue may check. */
export interface CardRead {
  name: string | null;
  number: string | null;
  /** Names the band might hold, best guess first. */
  names: string[];
  /** Upper-case tokens read around the number (set codes). */
  codes: string[];
  /** The regulation mark read before the number ("G"), or null. */
  regulationMark: string | null;
  /** Every other line read on the face (HP, attacks and abilities, evolves-from, illustrator), for the evidence. */
  lines: string[];
}

export interface OcrIdentifier extends CardIdentifier {
  readCard(picture: CardPicture): Promise<{ name: string | null; number: string | null }>;
  read(picture: CardPicture): Promise<CardRead>;
}

async function checkNumbers(catalog: Catalog, picture: CardPicture, reading: CardRead) {
  const cards = cardsToCheckByNumber(catalog, reading.names);
  if (cards.length === 0) return null;
  return matchByNumberFit(cards, await fitPrintedNumbers(picture, cards.map(printedNumber)));
}

/** What was read, matched against the catalogue when there is one: the catalogue's card, or what was read, unmatched. */
export function identifyFromReading(
  catalog: Catalog | null,
  read: Pick<CardRead, 'name' | 'number' | 'names' | 'codes'> & Partial<Pick<CardRead, 'regulationMark' | 'lines'>>,
  source: Identification['source'] = 'ocr',
): Identification {
  const identified = catalog ? identifyCard(catalog, { names: read.names, number: read.number, setCodes: read.codes, regulationMark: read.regulationMark ?? null, lines: read.lines ?? [] }) : null;
  const told = identified ? evidenceFields(identified) : {};
  if (identified?.match) return { ...unidentified(source), ...catalogIdentification(identified.match), ...told };
  // Matched to no card, what was read is a name only when the catalogue knows it (issue 35: stray print such as "JOU"
  // is not a name); else the card is unknown, with the catalogue's names close to what was read offered to choose from.
  const confirmed = catalog ? confirmedName(catalog, read.name ?? read.names[0] ?? null) : null;
  if (confirmed) return { ...unidentified(source), cardName: confirmed, cardNumber: read.number, nameConfirmed: true, ...told };
  const candidates = catalog ? nameCandidatesFor(catalog, read.names) : [];
  return { ...unidentified(source), cardNumber: read.number, ...(candidates.length > 0 ? { nameCandidates: candidates } : {}), ...told };
}

/** The evidence and, when not sure, the candidates, as the Identification carries them (absent when empty). */
function evidenceFields(identified: Identified): Pick<Identification, 'evidence' | 'catalogCandidates'> {
  const evidence = evidencePhrases(identified.evidence).slice(0, 24);
  const candidates = identified.candidates.map((candidate) => offeredCandidate(candidate.card));
  return { ...(identified.match && evidence.length > 0 ? { evidence } : {}), ...(candidates.length > 0 ? { catalogCandidates: candidates } : {}) };
}

/** A name read this close to one the catalogue has is that name, read with a slip at most. */
const CONFIRMED_NAME_SIMILARITY = 0.9;

/** The catalogue's spelling of the name read, when some card bears it; else null. */
export function confirmedName(catalog: Catalog, name: string | null): string | null {
  if (name === null || name.trim().length < 3) return null;
  const [best] = catalog.byName(name, { minSimilarity: CONFIRMED_NAME_SIMILARITY, limit: 1 });
  return best?.name ?? null;
}

/** How close a catalogue name must be to a name read to be offered, and how many are offered at most. */
const CANDIDATE_SIMILARITY = 0.8;
const MAX_CANDIDATES = 3;

/** The catalogue's names close to the names read, most similar first, each once. */
export function nameCandidatesFor(catalog: Catalog, names: readonly string[]): string[] {
  const found = names
    .filter((name) => name.trim().length >= 3)
    .flatMap((name) => catalog.byName(name, { minSimilarity: CANDIDATE_SIMILARITY, limit: MAX_CANDIDATES }))
    .sort((a, b) => b.similarity - a.similarity)
    .map((match) => match.name);
  return [...new Set(found)].slice(0, MAX_CANDIDATES);
}

export function createOcrIdentifier(options: OcrIdentifierOptions = {}): OcrIdentifier {
  let worker: Promise<Worker> | undefined;
  const getWorker = () => {
    worker ??= startOcrWorker(options.langPath);
    return worker;
  };

  /**
   * The name band and the number band (with the illustrator's line) as read; rejects when tesseract itself fails.
   * `lettering: 'light'` reads them as light lettering over pictures (full-art and holo faces).
   */
  async function read(picture: CardPicture, lettering: Lettering = 'plain'): Promise<CardRead> {
    const tesseract = await getWorker();
    const [band, numberArea] = await Promise.all([
      cropForReading(picture, nameBand(picture), NAME_READ_PX_PER_MM, { lettering }),
      cropForReading(picture, numberBand(picture), NUMBER_READ_PX_PER_MM, { marks: true, lettering }),
    ]);
    // The worker runs one job at a time, in order: results are the same whatever else is queued. A second look
    // over art skips a band with no letter-sized marks (a plain or blank face): tesseract would read only specks.
    const worth = (crop: Crop) => lettering === 'plain' || crop.letters >= MIN_LETTERS;
    const [nameRead, numberRead] = await Promise.all([
      worth(band) ? tesseract.recognize(band.png, {}, { text: true, blocks: true }) : null,
      worth(numberArea) ? tesseract.recognize(numberArea.png, {}, { text: true }) : null,
    ]);
    const words = nameRead ? wordsOf(nameRead.data) : [];
    const numberText = numberRead?.data.text ?? '';
    return {
      name: nameFromWords(words),
      number: collectorNumberFromText(numberText),
      names: nameCandidates(words),
      codes: setCodesFromText(numberText),
      regulationMark: regulationMarkFromText(numberText),
      // The band's small print (HP, "Evolves from"), the illustrator's line: evidence for the catalogue.
      lines: [...textLines(nameRead?.data.text ?? ''), ...textLines(numberText)],
    };
  }

  /** The attack block's lines: attack and ability names and their damage. */
  async function readAttacks(picture: CardPicture, lettering: Lettering): Promise<string[]> {
    const tesseract = await getWorker();
    const block = await cropForReading(picture, attackBlock(picture), ATTACK_READ_PX_PER_MM, { lettering });
    if (block.letters < MIN_LETTERS) return [];
    return textLines((await tesseract.recognize(block.png, {}, { text: true })).data.text);
  }

  async function readCard(picture: CardPicture): Promise<{ name: string | null; number: string | null }> {
    const { name, number } = await read(picture);
    return { name, number };
  }

  async function close(): Promise<void> {
    if (!worker) return;
    const created = worker;
    worker = undefined;
    await (await created).terminate();
  }

  const catalog = options.catalog === undefined ? shippedCatalog() : options.catalog;
  return {
    read,
    readCard,
    close,
    async identify(front: CardPicture): Promise<Identification> {
      let reading: CardRead;
      let identified: Identification;
      try {
        reading = await read(front);
        identified = identifyFromReading(catalog, reading);
        if (catalog && !sure(identified)) {
          // Not sure from the name and number: read what else is printed. A face where neither a name nor a number
          // read is lettering over art (full-art, holo): its bands are read again for light lettering on pictures.
          const overArt = reading.names.length === 0 && reading.number === null;
          const again = overArt ? await read(front, 'light') : null;
          const attacks = await readAttacks(front, overArt ? 'light' : 'plain');
          reading = again ? mergeReadings(reading, again, attacks) : { ...reading, lines: [...reading.lines, ...attacks] };
          identified = identifyFromReading(catalog, reading);
        }
      } catch (error) {
        options.onError?.(error);
        await close().catch(() => {}); // a broken worker is replaced on the next card
        return unidentified('none');
      }
      if (reading.name === null && reading.number === null && reading.names.length === 0 && identified.catalogId === null) return unidentified('none');
      if (catalog && identified.catalogId === null && reading.number === null) {
        // A name read but no number: the numbers of the cards bearing that name, checked against the card's foot.
        const byShape = await checkNumbers(catalog, front, reading).catch((error: unknown) => {
          options.onError?.(error);
          return null;
        });
        if (byShape) {
          const number = printedNumber(byShape.card);
          const evidence = [`name ${byShape.card.name}`, `number ${number} (by the shape of its print)`];
          // Not sure (a number told by its shape): the other cards that fit what was read are offered beside it.
          const others = (identified.catalogCandidates ?? []).filter((candidate) => candidate.catalogId !== byShape.card.id);
          const catalogCandidates = [offeredCandidate(byShape.card), ...others].slice(0, MAX_OFFERED);
          return { ...unidentified('ocr'), ...catalogIdentification(byShape), cardNumber: number, evidence, catalogCandidates };
        }
      }
      // No catalogue card: a sports card's print, as read from the lines already read (no sports catalogue to match).
      const sports = identified.catalogId === null && identified.nameConfirmed !== true ? sportsCardFromLines(reading.lines) : null;
      if (sports) return { ...identified, source: 'ocr', printedSportsCard: sports };
      return identified.catalogId === null && reading.name === null && reading.number === null && !identified.catalogCandidates ? unidentified('none') : identified;
    },
  };
}

/** A match this sure needs no more reading. */
const sure = (identification: Identification) => identification.catalogId !== null && (identification.catalogConfidence ?? 0) >= SURE_CONFIDENCE;

/** Non-empty lines of what tesseract read, spaces evened. */
function textLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line.length >= 2);
}

/** Two readings of one face (plain and over art) and its attack block, as one: what either read. */
function mergeReadings(plain: CardRead, art: CardRead, attacks: readonly string[]): CardRead {
  return {
    name: plain.name ?? art.name,
    number: plain.number ?? art.number,
    names: [...new Set([...plain.names, ...art.names])],
    codes: [...new Set([...plain.codes, ...art.codes])],
    regulationMark: plain.regulationMark ?? art.regulationMark,
    lines: [...plain.lines, ...art.lines, ...attacks],
  };
}
