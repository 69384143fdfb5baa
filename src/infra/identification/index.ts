import type { Config } from '../../config.ts';
import type { CardIdentifier } from './card-identifier.ts';
import { createOcrIdentifier } from './ocr-identifier.ts';
import { createVisionModelIdentifier } from './vision-model-identifier.ts';

export type { CardIdentifier, CardPicture } from './card-identifier.ts';
export { noIdentifier, unidentified } from './card-identifier.ts';
export { createOcrIdentifier } from './ocr-identifier.ts';
export { createVisionModelIdentifier } from './vision-model-identifier.ts';

/** Offline OCR by default; with OPENAI_API_KEY, the configured vision model, OCR standing by (DESIGN.md §2). */
export function createCardIdentifier(
  config: Pick<Config, 'OPENAI_API_KEY' | 'OPENAI_BASE_URL' | 'OPENAI_MODEL'>,
  onFallback?: (reason: string) => void,
): CardIdentifier {
  const ocr = createOcrIdentifier();
  if (!config.OPENAI_API_KEY) return ocr;
  return createVisionModelIdentifier({
    apiKey: config.OPENAI_API_KEY,
    baseURL: config.OPENAI_BASE_URL,
    model: config.OPENAI_MODEL,
    fallback: ocr,
    onFallback,
  });
}
