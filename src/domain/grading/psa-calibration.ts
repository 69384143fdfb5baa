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
    "engineVersion": "e2ba6ecef400",
    "method": "npm run fit:grades on graded/labels.json: PSA grade regressed on 9 wear features (centeringOffset, worstCorner, otherCorners, edgeWhitening, deepestNick, scratches, spots, printLine, crease) with every weight >= 0 (ridge, lambda 6 on standardised features), the weighted sum (wear score) mapped to PSA grades by isotonic regression (never rising, each step on at least 3 photos); range = 10th-90th percentile of leave-one-out misses, under and from 10 px/mm apart; figures leave-one-out against the best constant guess (the median grade of all the photos)."
  },
  "model": {
    "centeringWhenNotMeasurable": 7.7,
    "weights": {
      "centeringOffset": 0.0022,
      "worstCorner": 0.5046,
      "otherCorners": 0.2955,
      "edgeWhitening": 0.3137,
      "deepestNick": 0,
      "scratches": 0,
      "spots": 1.4045,
      "printLine": 0,
      "crease": 0
    },
    "scoreToGrade": [
      [
        0.52,
        8.67
      ],
      [
        1.6125,
        8
      ],
      [
        2.5002,
        7.67
      ],
      [
        2.7232,
        7.27
      ],
      [
        2.9627,
        6.67
      ],
      [
        3.2036,
        6.18
      ],
      [
        3.9895,
        4.83
      ],
      [
        4.8489,
        2.5
      ]
    ],
    "range": {
      "fullDetail": {
        "below": -1.49,
        "above": 3.03
      },
      "coarse": {
        "below": -3.83,
        "above": 2.74
      }
    },
    "withinOne": 0.32,
    "beatsConstantGuess": false
  },
  "crossValidated": {
    "estimate": {
      "count": 69,
      "spearman": 0.15,
      "exact": 0.159,
      "withinOne": 0.319,
      "withinTwo": 0.551,
      "meanAbsError": 2.145
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
      "spearman": 0.151,
      "exact": 0.087,
      "withinOne": 0.275,
      "withinTwo": 0.594,
      "meanAbsError": 2.236
    }
  }
});
