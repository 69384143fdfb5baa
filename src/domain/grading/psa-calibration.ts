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
    "engineVersion": "5ab4d0dc612c",
    "method": "npm run fit:grades on graded/labels.json: PSA grade regressed on 9 wear features (centeringOffset, worstCorner, otherCorners, edgeWhitening, deepestNick, scratches, spots, printLine, crease) with every weight >= 0 (ridge, lambda 6 on standardised features), the weighted sum (wear score) mapped to PSA grades by isotonic regression (never rising); range = 10th-90th percentile of leave-one-out misses per resolution class; figures leave-one-out against the best constant guess (the median of all the photos grades)."
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
        0.2009,
        9
      ],
      [
        1.2647,
        8.38
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
        2.7181,
        7
      ],
      [
        2.7716,
        5.5
      ],
      [
        3.0592,
        5.33
      ],
      [
        3.7328,
        2
      ]
    ],
    "range": {
      "fullDetail": {
        "below": -0.49,
        "above": 2.74
      },
      "coarse": {
        "below": -5.82,
        "above": 2.82
      }
    },
    "withinOne": 0.35,
    "beatsConstantGuess": false
  },
  "crossValidated": {
    "estimate": {
      "count": 62,
      "spearman": 0.116,
      "exact": 0.194,
      "withinOne": 0.355,
      "withinTwo": 0.629,
      "meanAbsError": 2.177
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
