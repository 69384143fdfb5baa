import type { GradedCard, Identification } from '../../src/contracts/grading.ts';
import type { CardGraded } from '../../src/domain/cards/index.ts';
import { describeGradedCard, gradeCard } from '../../src/domain/grading/index.ts';
import { unidentified as unidentifiedBy } from '../../src/infra/identification/card-identifier.ts';
import { side, type SideOptions } from '../grading/fixtures.ts';

// Graded cards as the real engine describes them, from hand-built measurements.

export const unidentified: Identification = unidentifiedBy('none');

export function gradedCard(options: { front?: SideOptions; back?: SideOptions; identification?: Partial<Identification> } = {}): GradedCard {
  const front = side(options.front);
  const back = options.back ? side({ ...options.back, side: 'back' }) : undefined;
  const measurements = back ? { front, back } : { front };
  return describeGradedCard(gradeCard(measurements), { ...unidentified, ...options.identification }, measurements);
}

export const hash = (n: number) => n.toString(16).padStart(64, '0');

export function cardGradedData(overrides: Partial<CardGraded['data']> = {}): CardGraded['data'] {
  return {
    cardId: 'c1c1c1c1c1c1c1c1c1c1c1',
    owner: 'user:u1',
    cardType: 'pokemon',
    images: { front: { hash: hash(1), contentType: 'image/jpeg', sourceUrl: null }, back: null },
    annotatedImages: { front: hash(2), back: null },
    result: gradedCard(),
    engine: { vision: 'test-vision', calibration: 'test-calibration' },
    gradedAt: '2026-03-01T12:00:00.000Z',
    ...overrides,
  };
}
