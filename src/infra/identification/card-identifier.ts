import type { Identification } from '../../contracts/grading.ts';
import { CARD_HEIGHT_MM, CARD_WIDTH_MM } from '../../contracts/measurement.ts';
import type { InnerFrame } from '../../contracts/measurement.ts';
import type { DecodedImage } from '../../vision/index.ts';

// Who the card is: a port with two adapters, offline OCR (default) and an OpenAI-compatible vision model
// (DESIGN.md §2). Identification never grades: the grade comes from the measurements alone.

/** One side as the grading service has it: flattened and upright, the card's format's size (63 × 88 mm for most). */
export interface CardPicture {
  image: DecodedImage;
  /** The card's size in mm (its format's): the picture spans it. Absent: 63 × 88 mm. */
  cardSize?: { widthMm: number; heightMm: number };
  /** Where the border ends (mm), when centering was measured: the name band sits just inside it. */
  innerFrame?: InnerFrame;
}

/** The picture's card size in mm: its format's, 63 × 88 mm when not given. */
export function pictureCardSize(picture: CardPicture): { widthMm: number; heightMm: number } {
  return picture.cardSize ?? { widthMm: CARD_WIDTH_MM, heightMm: CARD_HEIGHT_MM };
}

export interface CardIdentifier {
  /** Never throws for a card it cannot read: it answers with what it knows (fields null). */
  identify(front: CardPicture, back?: CardPicture): Promise<Identification>;
  close(): Promise<void>;
}

export function unidentified(source: Identification['source'] = 'none'): Identification {
  return {
    source,
    cardName: null,
    cardSet: null,
    cardNumber: null,
    rarity: null,
    cardFacts: null,
    setDescription: null,
    estimatedValue: null,
    psa10Value: null,
    model: null,
    catalogId: null,
    catalogConfidence: null,
    cardYear: null,
  };
}

/** For `--no-identify` and for tests of the grading service that are not about identification. */
export const noIdentifier: CardIdentifier = {
  identify: async () => unidentified(),
  close: async () => {},
};
