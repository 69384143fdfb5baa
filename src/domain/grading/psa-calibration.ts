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
        "graded": 37
      }
    ],
    "date": "2026-11-27",
    "engineVersion": "477ff4aa5559",
    "method": "npm run fit:grades on graded/labels.json: PSA grade regressed on 9 wear features (centeringOffset, worstCorner, otherCorners, edgeWhitening, deepestNick, scratches, spots, printLine, crease) with every weight >= 0 (ridge, lambda 6 on standardised features), the weighted sum (wear score) mapped to PSA grades by isotonic regression (never rising, each step on at least 3 photos); range = 10th-90th percentile of leave-one-out misses, under and from 10 px/mm apart; figures leave-one-out against the best constant guess (the median grade of all the photos)."
  },
  "model": {
    "centeringWhenNotMeasurable": 10.15,
    "weights": {
      "centeringOffset": 0.0133,
      "worstCorner": 0.1168,
      "otherCorners": 0,
      "edgeWhitening": 0.3859,
      "deepestNick": 0,
      "scratches": 0.2845,
      "spots": 0.344,
      "printLine": 0.8801,
      "crease": 1.1899
    },
    "scoreToGrade": [
      [
        0.4012,
        8.38
      ],
      [
        0.9838,
        8.07
      ],
      [
        1.3124,
        8
      ],
      [
        1.3992,
        7.8
      ],
      [
        1.9373,
        7.62
      ],
      [
        2.2512,
        7
      ],
      [
        2.78,
        5.47
      ]
    ],
    "range": {
      "fullDetail": {
        "below": -1.29,
        "above": 2.87
      },
      "coarse": {
        "below": -5.82,
        "above": 2.69
      }
    },
    "withinOne": 0.38,
    "beatsConstantGuess": false
  },
  "crossValidated": {
    "estimate": {
      "count": 64,
      "spearman": -0.012,
      "exact": 0.219,
      "withinOne": 0.375,
      "withinTwo": 0.625,
      "meanAbsError": 2.133
    },
    "constantGuess": {
      "count": 64,
      "spearman": null,
      "exact": 0.203,
      "withinOne": 0.578,
      "withinTwo": 0.797,
      "meanAbsError": 1.828
    },
    "engineOverallGrade": {
      "count": 64,
      "spearman": 0.189,
      "exact": 0.078,
      "withinOne": 0.266,
      "withinTwo": 0.672,
      "meanAbsError": 2.028
    }
  }
});
