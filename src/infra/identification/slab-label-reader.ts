import sharp from 'sharp';
import type { Worker } from 'tesseract.js';
import type { SlabLabel } from '../../contracts/grading.ts';
import { parseSlabLabel } from '../../domain/grading/index.ts';
import type { GreyImage } from '../../vision/slab-label.ts';
import { binarise, startOcrWorker } from './ocr-identifier.ts';

// Reads a slab's label (found by src/vision/slab-label.ts) offline: tesseract with the installed English data, then
// the grader and grade parsed from the text (src/domain/grading/slab-label.ts). Its own worker, started on the
// first label, so a raw card never pays for it and reading a label never waits behind identifying a card.

/** White round the print, as on the name band: tesseract finds lines touching the picture's edge badly. */
const PADDING_PX = 12;

export interface SlabLabelReader {
  /** The grader and grade, or null when the label cannot be read (the card counts as raw); never throws. */
  read(label: GreyImage): Promise<SlabLabel | null>;
  close(): Promise<void>;
}

export interface SlabLabelReaderOptions {
  langPath?: string;
  /** Told when reading failed (logging). */
  onError?: (error: unknown) => void;
}

export function createSlabLabelReader(options: SlabLabelReaderOptions = {}): SlabLabelReader {
  let worker: Promise<Worker> | undefined;

  async function close(): Promise<void> {
    if (!worker) return;
    const started = worker;
    worker = undefined;
    await (await started).terminate();
  }

  return {
    close,
    async read(label) {
      try {
        worker ??= startOcrWorker(options.langPath);
        const png = await sharp(binarise(label.data), { raw: { width: label.width, height: label.height, channels: 1 } })
          .extend({ top: PADDING_PX, bottom: PADDING_PX, left: PADDING_PX, right: PADDING_PX, background: '#ffffff' })
          .png({ compressionLevel: 1 })
          .toBuffer();
        const { data } = await (await worker).recognize(png, {}, { text: true });
        return parseSlabLabel(data.text);
      } catch (error) {
        options.onError?.(error);
        await close().catch(() => {}); // a broken worker is replaced on the next label
        return null;
      }
    },
  };
}
