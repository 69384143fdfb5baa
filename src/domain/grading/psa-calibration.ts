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
    "date": "2026-11-29",
    "engineVersion": "81215e779ba4",
    "method": "npm run fit:grades on graded/labels.json: PSA grade regressed on 9 wear features (centeringOffset, worstCorner, otherCorners, edgeWhitening, deepestNick, scratches, spots, printLine, crease) with every weight >= 0 (ridge, lambda 6 on standardised features), the weighted sum (wear score) mapped to PSA grades by isotonic regression (never rising, each step on at least 3 photos); whether the measurements' leave-one-out estimates beat the constant guess, under and from 10 px/mm apart (a class whose did not answers the guess); range = 10th-90th percentile of the leave-one-out misses of what each class answers, confidence ceiling = their within-one share; figures leave-one-out against the best constant guess (the median grade of all the photos)."
  },
  "model": {
    "centeringWhenNotMeasurable": 7.3,
    "weights": {
      "centeringOffset": 0.0376,
      "worstCorner": 0,
      "otherCorners": 0.5003,
      "edgeWhitening": 0,
      "deepestNick": 0,
      "scratches": 0.0958,
      "spots": 1.0862,
      "printLine": 0,
      "crease": 0
    },
    "scoreToGrade": [
      [
        0.6334,
        8.57
      ],
      [
        1.7309,
        7.95
      ],
      [
        3.1362,
        6.2
      ],
      [
        3.574,
        5.57
      ],
      [
        4.0151,
        4.8
      ],
      [
        4.8987,
        2.67
      ]
    ],
    "byResolution": {
      "fullDetail": {
        "below": -1.7,
        "above": 2.91,
        "withinOne": 0.74,
        "beatsConstantGuess": false
      },
      "coarse": {
        "below": -4.08,
        "above": 3.04,
        "withinOne": 0.32,
        "beatsConstantGuess": true
      }
    },
    "constantGuess": 8
  },
  "crossValidated": {
    "estimate": {
      "count": 69,
      "spearman": 0.509,
      "exact": 0.232,
      "withinOne": 0.536,
      "withinTwo": 0.754,
      "meanAbsError": 1.623
    },
    "measurementsAlone": {
      "count": 69,
      "spearman": 0.345,
      "exact": 0.261,
      "withinOne": 0.42,
      "withinTwo": 0.667,
      "meanAbsError": 1.87
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
      "spearman": 0.177,
      "exact": 0.145,
      "withinOne": 0.348,
      "withinTwo": 0.565,
      "meanAbsError": 2.296
    }
  }
});
