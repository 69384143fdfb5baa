import sharp from 'sharp';
import { PSM } from 'tesseract.js';
import type { Worker } from 'tesseract.js';
import type { SlabLabel } from '../../contracts/grading.ts';
import { parseSlabLabel } from '../../domain/grading/index.ts';
import type { GreyImage } from '../../vision/slab-label.ts';
import { binarise, startOcrWorker } from './ocr-identifier.ts';

// Reads a slab's label (found by src/vision/slab-label.ts) offline: tesseract with the installed English data, then
// what it says parsed from the text (src/domain/grading/slab-label.ts). Its own worker, started on the first label,
// so a raw card never pays for it and reading a label never waits behind identifying a card.
//
// The label is read as one block of lines (tesseract keeps each printed line a line, which PSA's layout needs: the
// grade's words end one line, the grade the next). When that does not parse, its right-hand column alone (where PSA
// prints the descriptor, the grade and the cert) is read again: on its own, tesseract no longer joins it to the card's
// name and reads it cleaner. Last, the whole label as scattered text: that finds a grader's name printed large (BGS,
// CGC, SGC, TAG, AGS), which tesseract skips when it looks for lines of one size.

/** White round the print, as on the name band: tesseract finds lines touching the picture's edge badly. */
const PADDING_PX = 12;
/** PSA's right-hand column (descriptor, grade, cert): the label's right 38%, clear of the card's name and set lines' ends in most labels. */
const RIGHT_COLUMN_SHARE = 0.38;

export interface SlabLabelReader {
  /** What the label says, or null when it cannot be read (the card counts as raw); never throws. */
  read(label: GreyImage): Promise<SlabLabel | null>;
  close(): Promise<void>;
}

/** The readings tried in turn, until one parses. */
type LabelPart = 'whole' | 'right column' | 'scattered';
const READINGS: ReadonlyArray<{ part: LabelPart; left: number; mode: PSM }> = [
  { part: 'whole', left: 0, mode: PSM.SINGLE_BLOCK },
  { part: 'right column', left: 1 - RIGHT_COLUMN_SHARE, mode: PSM.SINGLE_BLOCK },
  { part: 'scattered', left: 0, mode: PSM.SPARSE_TEXT },
];

export interface SlabLabelReaderOptions {
  langPath?: string;
  /** Told when reading failed (logging). */
  onError?: (error: unknown) => void;
  /** Told every text OCR read, and from which part of the label (the labels bench). */
  onText?: (part: LabelPart, text: string) => void;
}

export function createSlabLabelReader(options: SlabLabelReaderOptions = {}): SlabLabelReader {
  let worker: Promise<Worker> | undefined;

  async function close(): Promise<void> {
    if (!worker) return;
    const started = worker;
    worker = undefined;
    await (await started).terminate();
  }

  async function ocr(pixels: Uint8Array, width: number, height: number, leftShare: number, mode: PSM): Promise<string> {
    worker ??= startOcrWorker(options.langPath);
    const left = Math.round(width * leftShare);
    const png = await sharp(pixels, { raw: { width, height, channels: 1 } })
      .extract({ left, top: 0, width: width - left, height })
      .extend({ top: PADDING_PX, bottom: PADDING_PX, left: PADDING_PX, right: PADDING_PX, background: '#ffffff' })
      .png({ compressionLevel: 1 })
      .toBuffer();
    const started = await worker;
    await started.setParameters({ tessedit_pageseg_mode: mode });
    const { data } = await started.recognize(png, {}, { text: true });
    return data.text;
  }

  return {
    close,
    async read(label) {
      try {
        const binary = binarise(label.data);
        for (const { part, left, mode } of READINGS) {
          const text = await ocr(binary, label.width, label.height, left, mode);
          options.onText?.(part, text);
          const parsed = parseSlabLabel(text);
          if (parsed !== null) return parsed;
        }
        return null;
      } catch (error) {
        options.onError?.(error);
        await close().catch(() => {}); // a broken worker is replaced on the next label
        return null;
      }
    },
  };
}
