// Written by `npm run fit:grades` (scripts/fit-grades.ts): do not edit by hand, refit instead (GRADING.md §2b).
// The PSA estimate's parameters (src/domain/grading/psa-estimate.ts), where they came from and how well they did on
// photos they were not fitted on. The photos themselves stay out of the repository.
import type { PsaCalibration } from './psa-estimate.ts';

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

export const PSA_CALIBRATION: PsaCalibration = deepFreeze({
  "provenance": {
    "fittedOn": [
      {
        "set": "bm_",
        "photos": 40,
        "graded": 32
      },
      {
        "set": "wo_",
        "photos": 39,
        "graded": 37
      }
    ],
    "date": "2026-11-28",
    "engineVersion": "1f9ca061cbac",
    "method": "npm run fit:grades on graded/labels.json: PSA grade regressed on 9 wear features (centeringOffset, worstCorner, otherCorners, edgeWhitening, deepestNick, scratches, spots, printLine, crease) with every weight >= 0 (ridge, lambda 6 on standardised features), the weighted sum (wear score) mapped to PSA grades by isotonic regression (never rising, each step on at least 3 photos); range = 10th-90th percentile of leave-one-out misses, under and from 10 px/mm apart; figures leave-one-out against the best constant guess (the median grade of all the photos)."
  },
  "model": {
    "centeringWhenNotMeasurable": 8,
    "weights": {
      "centeringOffset": 0,
      "worstCorner": 0,
      "otherCorners": 0.5867,
      "edgeWhitening": 0.1163,
      "deepestNick": 0,
      "scratches": 0.0093,
      "spots": 1.0943,
      "printLine": 0,
      "crease": 0
    },
    "scoreToGrade": [
      [
        1.0994,
        8.05
      ],
      [
        2.4096,
        7.8
      ],
      [
        3.1059,
        4.92
      ],
      [
        3.9955,
        4.6
      ],
      [
        4.5059,
        2
      ]
    ],
    "range": {
      "fullDetail": {
        "below": -1.08,
        "above": 2.73
      },
      "coarse": {
        "below": -3.25,
        "above": 2.15
      }
    },
    "withinOne": 0.49,
    "beatsConstantGuess": true
  },
  "crossValidated": {
    "estimate": {
      "count": 69,
      "spearman": 0.374,
      "exact": 0.188,
      "withinOne": 0.493,
      "withinTwo": 0.739,
      "meanAbsError": 1.826
    },
    "constantGuess": {
      "count": 69,
      "spearman": null,
      "exact": 0.188,
      "withinOne": 0.536,
      "withinTwo": 0.739,
      "meanAbsError": 2.029
    },
    "engineOverallGrade": {
      "count": 69,
      "spearman": 0.165,
      "exact": 0.145,
      "withinOne": 0.319,
      "withinTwo": 0.551,
      "meanAbsError": 2.301
    }
  }
});
