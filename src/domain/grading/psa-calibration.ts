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
    "engineVersion": "0fabf3a93240",
    "method": "npm run fit:grades on graded/labels.json: PSA grade regressed on 9 wear features (centeringOffset, worstCorner, otherCorners, edgeWhitening, deepestNick, scratches, spots, printLine, crease) with every weight >= 0 (ridge, lambda 6 on standardised features), the weighted sum (wear score) mapped to PSA grades by isotonic regression (never rising, each step on at least 3 photos); range = 10th-90th percentile of leave-one-out misses, under and from 10 px/mm apart; figures leave-one-out against the best constant guess (the median grade of all the photos)."
  },
  "model": {
    "centeringWhenNotMeasurable": 7.7,
    "weights": {
      "centeringOffset": 0.0022,
      "worstCorner": 0.5047,
      "otherCorners": 0.2951,
      "edgeWhitening": 0.315,
      "deepestNick": 0,
      "scratches": 0.0078,
      "spots": 1.4025,
      "printLine": 0,
      "crease": 0
    },
    "scoreToGrade": [
      [
        0.5314,
        8.67
      ],
      [
        1.6219,
        8
      ],
      [
        2.5121,
        7.67
      ],
      [
        2.7336,
        7.27
      ],
      [
        2.9742,
        6.67
      ],
      [
        3.2123,
        6.18
      ],
      [
        4.0007,
        4.83
      ],
      [
        4.8585,
        2.5
      ]
    ],
    "range": {
      "fullDetail": {
        "below": -1.49,
        "above": 3.03
      },
      "coarse": {
        "below": -3.91,
        "above": 2.7
      }
    },
    "withinOne": 0.32,
    "beatsConstantGuess": false
  },
  "crossValidated": {
    "estimate": {
      "count": 69,
      "spearman": 0.114,
      "exact": 0.159,
      "withinOne": 0.319,
      "withinTwo": 0.536,
      "meanAbsError": 2.167
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
      "spearman": 0.148,
      "exact": 0.087,
      "withinOne": 0.304,
      "withinTwo": 0.594,
      "meanAbsError": 2.222
    }
  }
});
