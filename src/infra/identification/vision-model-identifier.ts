import OpenAI from 'openai';
import sharp from 'sharp';
import { z } from 'zod';
import type { Identification, ValueEstimate } from '../../contracts/grading.ts';
import { catalogIdentification, matchCard, type Catalog } from '../../domain/catalog/index.ts';
import { normaliseRarity } from '../../domain/grading/index.ts';
import { shippedCatalog } from '../catalog/index.ts';
import type { CardIdentifier, CardPicture } from './card-identifier.ts';

// Identification by an OpenAI-compatible vision model (OpenAI, or a local server speaking the same API).
// The model only says who the card is and what it may be worth; the grade is measured, never asked for.
// Its answer is checked with zod; a failed call, a timeout or an answer that does not fit falls back to
// the offline identifier's result, which runs alongside so the fallback costs no extra time.

export const DEFAULT_VISION_MODEL_TIMEOUT_MS = 20_000;
/** 10 px/mm is plenty to read a card's name and number, and keeps the request small. */
const SENT_WIDTH_PX = 630;

const text = (max: number) =>
  z
    .string()
    .max(max)
    .nullish()
    .transform((v) => (v === undefined || v === null || v.trim() === '' ? null : v.trim()));
const price = z.number().nonnegative().max(100_000_000).nullish().transform((v) => v ?? null);

export const visionModelAnswerSchema = z.object({
  cardName: text(200),
  cardSet: text(200),
  cardNumber: text(50),
  rarity: text(100),
  cardFacts: text(4000),
  setDescription: text(2000),
  estimatedValueUsd: price,
  psa10ValueUsd: price,
});
export type VisionModelAnswer = z.infer<typeof visionModelAnswerSchema>;

const INSTRUCTIONS = `You identify trading cards from photos. Answer with one JSON object and nothing else:
{"cardName": string|null, "cardSet": string|null, "cardNumber": string|null, "rarity": string|null,
 "cardFacts": string|null, "setDescription": string|null, "estimatedValueUsd": number|null, "psa10ValueUsd": number|null}
cardNumber as printed (e.g. "58/102"). cardFacts: two or three sentences about the card. estimatedValueUsd: a typical
raw (ungraded) near-mint sale price in US dollars; psa10ValueUsd: the same card graded PSA 10. Use null for anything you
cannot tell. Do not grade the card's condition.`;

export function formatUsd(value: number): string {
  return `$${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

async function asDataUrl(picture: CardPicture): Promise<string> {
  const { image } = picture;
  const jpeg = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
    .resize({ width: Math.min(SENT_WIDTH_PX, image.width) })
    .jpeg({ quality: 85 })
    .toBuffer();
  return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
}

/** The JSON object in a reply, also when a model wraps it in a code fence. */
function parseAnswer(content: string | null | undefined): VisionModelAnswer {
  const body = (content ?? '').trim().replace(/^```(?:json)?\s*|\s*```$/g, '');
  return visionModelAnswerSchema.parse(JSON.parse(body));
}

export interface VisionModelIdentifierOptions {
  apiKey: string;
  /** OPENAI_BASE_URL; the SDK's default (api.openai.com) when not set. */
  baseURL?: string;
  model: string;
  timeoutMs?: number;
  /** The offline identifier: its answer fills what the model leaves out, and stands in when the model fails. */
  fallback: CardIdentifier;
  /** Told why a model answer was not used (logging); never affects the result. */
  onFallback?: (reason: string) => void;
  /** The model's answer is checked against it like OCR's reading; default the shipped catalogue, null for none. */
  catalog?: Catalog | null;
}

export function createVisionModelIdentifier(options: VisionModelIdentifierOptions): CardIdentifier {
  const client = new OpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseURL ?? null,
    timeout: options.timeoutMs ?? DEFAULT_VISION_MODEL_TIMEOUT_MS,
    maxRetries: 0, // a slow model must not hold a grade up; the offline result is there
  });
  const label = (what: string): string => `estimate by ${options.model}, ${what}`;
  const catalog = options.catalog === undefined ? shippedCatalog() : options.catalog;

  async function ask(front: CardPicture, back?: CardPicture): Promise<VisionModelAnswer> {
    const images = await Promise.all([front, ...(back ? [back] : [])].map(asDataUrl));
    const completion = await client.chat.completions.create({
      model: options.model,
      temperature: 0,
      response_format: { type: 'json_object' },
      messages: [
        { role: 'system', content: INSTRUCTIONS },
        {
          role: 'user',
          content: [
            { type: 'text', text: back ? 'Front and back of one card.' : 'Front of one card.' },
            ...images.map((url) => ({ type: 'image_url' as const, image_url: { url } })),
          ],
        },
      ],
    });
    return parseAnswer(completion.choices[0]?.message.content);
  }

  return {
    async identify(front, back) {
      const offline = options.fallback.identify(front, back);
      let answer: VisionModelAnswer;
      try {
        answer = await ask(front, back);
      } catch (error) {
        options.onFallback?.(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
        return offline;
      }
      const read = await offline;
      if (answer.cardName === null && answer.cardNumber === null) {
        options.onFallback?.('the model could not tell which card this is');
        return read;
      }
      const estimate = (value: number | null, what: string): ValueEstimate | null =>
        value === null ? null : { text: formatUsd(value), label: label(what) };
      const identification: Identification = {
        source: 'vision-model',
        cardName: answer.cardName ?? read.cardName,
        cardSet: answer.cardSet ?? read.cardSet,
        cardNumber: answer.cardNumber ?? read.cardNumber,
        rarity: normaliseRarity(answer.rarity) ?? read.rarity,
        cardFacts: answer.cardFacts ?? read.cardFacts,
        setDescription: answer.setDescription ?? read.setDescription,
        estimatedValue: estimate(answer.estimatedValueUsd, 'not market data'),
        psa10Value: estimate(answer.psa10ValueUsd, 'PSA 10, not market data'),
        model: options.model,
        catalogId: null,
        catalogConfidence: null,
        cardYear: null,
      };
      // Checked against the catalogue like OCR's reading: the catalogue's card when the model's name and number
      // match one (its name, set, number, rarity, year; the model's own facts and set text kept where it gave
      // some), else OCR's match, else the model's answer as it gave it (unmatched).
      const match = catalog && answer.cardName ? matchCard(catalog, { names: [answer.cardName], number: answer.cardNumber }) : null;
      if (match) {
        const fromCatalog = catalogIdentification(match);
        return {
          ...identification,
          ...fromCatalog,
          cardFacts: answer.cardFacts ?? fromCatalog.cardFacts,
          setDescription: answer.setDescription ?? fromCatalog.setDescription,
        };
      }
      if (read.catalogId !== null) {
        const { source: _source, estimatedValue: _e, psa10Value: _p, model: _m, ...fromCatalog } = read;
        return { ...identification, ...fromCatalog };
      }
      return identification;
    },
    close: () => options.fallback.close(),
  };
}
