import type {
  CardGrade,
  CenteringVerdict,
  Condition,
  GradedCard,
  GradeLabel,
  GradeLabels,
  Identification,
  SlabLabel,
  Subgrades,
} from '../../contracts/grading.ts';
import { identifiedCardName, NOT_AVAILABLE } from '../../contracts/grading.ts';
import type { SideMeasurement } from '../../contracts/measurement.ts';
import { bgsOverall } from './bgs-overall.ts';
import { centeringCeilings } from './ceilings.ts';
import { describeCondition } from './condition-analysis.ts';
import { estimatePsaGrade } from './psa-estimate.ts';
import { capGrades, CREASE_CAP, gradeSide } from './side-grades.ts';
import { roundGrade } from './tables.ts';

// The card's grade from its measured sides: SPEC.md §9 exactly.

const FRONT_WEIGHT = 0.6;
const BACK_WEIGHT = 0.4;

export function gradeLabel(grade: number): GradeLabel {
  if (grade >= 9.5) return 'Excellent';
  if (grade >= 9) return 'Very Good';
  if (grade >= 8) return 'Good';
  if (grade >= 7) return 'Average';
  return 'Poor';
}

export function centeringVerdict(centering: number | null): CenteringVerdict {
  if (centering === null) return 'Centering Not Measurable';
  return centering >= 8.5 ? 'Good Centering' : 'Poor Centering';
}

function conditionAverage(grades: Subgrades): number {
  return (grades.corners + grades.edges + grades.surface) / 3;
}

/** From corners, edges and surface (front 0.6, back 0.4 when both exist), on the one-decimal figure a person sees. */
export function condition(front: Subgrades, back?: Subgrades): Condition {
  const average = roundGrade(back ? FRONT_WEIGHT * conditionAverage(front) + BACK_WEIGHT * conditionAverage(back) : conditionAverage(front));
  if (average >= 9) return 'Near Mint';
  if (average >= 8) return 'Lightly Played';
  if (average >= 7) return 'Moderately Played';
  return 'Heavily Played';
}

function blend(front: number, back: number): number {
  return roundGrade(FRONT_WEIGHT * front + BACK_WEIGHT * back);
}

/** 60/40 per subgrade; a centering only one side could measure is that side's alone. */
export function blendSubgrades(front: Subgrades, back: Subgrades): Subgrades {
  let centering: number | null = front.centering ?? back.centering;
  if (front.centering !== null && back.centering !== null) centering = blend(front.centering, back.centering);
  return {
    centering,
    corners: blend(front.corners, back.corners),
    edges: blend(front.edges, back.edges),
    surface: blend(front.surface, back.surface),
  };
}

function labelsOf(grades: Subgrades, overall: number): GradeLabels {
  return {
    overall: gradeLabel(overall),
    centering: grades.centering === null ? null : gradeLabel(grades.centering),
    corners: gradeLabel(grades.corners),
    edges: gradeLabel(grades.edges),
    surface: gradeLabel(grades.surface),
  };
}

export function gradeCard(sides: { front: SideMeasurement; back?: SideMeasurement }): CardGrade {
  const front = gradeSide(sides.front);
  const back = sides.back ? gradeSide(sides.back) : undefined;

  let grades = back ? blendSubgrades(front.grades, back.grades) : front.grades;
  let overallGrade = back ? blend(front.overall, back.overall) : front.overall;
  // A crease goes through the card: seen on either side, it caps every grade of the card.
  if (front.creased || back?.creased) {
    grades = capGrades(grades, CREASE_CAP);
    overallGrade = Math.min(CREASE_CAP, overallGrade);
  }

  const measured = back ? [sides.front, sides.back!] : [sides.front];
  const confidence = Math.min(...measured.map((m) => m.confidence));
  const photoHints = measured.flatMap((m) => m.quality.hints.map((hint) => `${m.side === 'front' ? 'Front' : 'Back'}: ${hint}`));
  const cardCondition = condition(front.grades, back?.grades);
  const psaEstimate = estimatePsaGrade(sides);

  return {
    grades,
    ...(back ? { frontGrades: front.grades, backGrades: back.grades, frontOverall: front.overall, backOverall: back.overall } : {}),
    overallGrade,
    centeringVerdict: centeringVerdict(grades.centering),
    condition: cardCondition,
    labels: labelsOf(grades, overallGrade),
    centeringCeilings: centeringCeilings(sides.front.centering, sides.back?.centering),
    bgsOverall: Math.min(bgsOverall(grades), front.creased || back?.creased ? CREASE_CAP : 10),
    conditionAnalysis: describeCondition(cardCondition, overallGrade, grades, measured, psaEstimate),
    confidence: Math.round(confidence * 100) / 100,
    photoHints,
    psaEstimate,
  };
}

/** A price shown with who estimated it, so a model's guess is never mistaken for market data. */
export function labelledPrice(estimate: Identification['estimatedValue']): string {
  return estimate ? `${estimate.text} (${estimate.label})` : NOT_AVAILABLE;
}

/**
 * The grade and the identification as the Grading result of SPEC.md §3, before storage. A slab's label, when one
 * was read, makes the card professionally graded (isGraded) with the label's grade as its official one; the
 * engine's own grade beside it is still the one measured from the card.
 */
export function describeGradedCard(
  grade: CardGrade,
  identification: Identification,
  measurements: { front: SideMeasurement; back?: SideMeasurement },
  slabLabel: SlabLabel | null = null,
): GradedCard {
  return {
    cardName: identifiedCardName(identification),
    cardSet: identification.cardSet,
    cardNumber: identification.cardNumber,
    cardFacts: identification.cardFacts,
    setDescription: identification.setDescription,
    rarity: identification.rarity,
    estimatedValue: labelledPrice(identification.estimatedValue),
    psa10Value: labelledPrice(identification.psa10Value),
    ...grade,
    identification,
    measurements: measurements.back ? { front: measurements.front, back: measurements.back } : { front: measurements.front },
    ...(measurements.front.cardFormat ? { cardFormat: measurements.front.cardFormat } : {}),
    isGraded: slabLabel !== null,
    ...(slabLabel ? { slabLabel } : {}),
  };
}
