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
        "graded": 27
      },
      {
        "set": "wo_",
        "photos": 39,
        "graded": 35
      }
    ],
    "date": "2026-11-27",
    "engineVersion": "5fdaabd7b433",
    "method": "npm run fit:grades on graded/labels.json: PSA grade regressed on 9 wear features (centeringOffset, worstCorner, otherCorners, edgeWhitening, deepestNick, scratches, spots, printLine, crease) with every weight >= 0 (ridge, lambda 6 on standardised features), the weighted sum (wear score) mapped to PSA grades by isotonic regression (never rising, each step on at least 3 photos); range = 10th-90th percentile of leave-one-out misses, under and from 10 px/mm apart; figures leave-one-out against the best constant guess (the median grade of all the photos)."
  },
  "model": {
    "centeringWhenNotMeasurable": 22.2,
    "weights": {
      "centeringOffset": 0.0311,
      "worstCorner": 0,
      "otherCorners": 0,
      "edgeWhitening": 0,
      "deepestNick": 0,
      "scratches": 0.1293,
      "spots": 1.0581,
      "printLine": 0.8058,
      "crease": 0.3054
    },
    "scoreToGrade": [
      [
        1.1887,
        8.43
      ],
      [
        1.6956,
        8.33
      ],
      [
        1.873,
        7.25
      ],
      [
        2.5028,
        7.1
      ],
      [
        2.7449,
        6.25
      ],
      [
        3.1554,
        4.86
      ]
    ],
    "range": {
      "fullDetail": {
        "below": -0.53,
        "above": 2.39
      },
      "coarse": {
        "below": -5.81,
        "above": 2.88
      }
    },
    "withinOne": 0.37,
    "beatsConstantGuess": false
  },
  "crossValidated": {
    "estimate": {
      "count": 62,
      "spearman": 0.075,
      "exact": 0.226,
      "withinOne": 0.371,
      "withinTwo": 0.613,
      "meanAbsError": 2.105
    },
    "constantGuess": {
      "count": 62,
      "spearman": null,
      "exact": 0.21,
      "withinOne": 0.565,
      "withinTwo": 0.79,
      "meanAbsError": 1.855
    },
    "engineOverallGrade": {
      "count": 62,
      "spearman": 0.152,
      "exact": 0.161,
      "withinOne": 0.323,
      "withinTwo": 0.597,
      "meanAbsError": 2.135
    }
  }
});
