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
        "graded": 33
      },
      {
        "set": "wo_",
        "photos": 39,
        "graded": 37
      }
    ],
    "date": "2026-11-28",
    "engineVersion": "35efd4bd5290",
    "method": "npm run fit:grades on graded/labels.json: PSA grade regressed on 9 wear features (centeringOffset, worstCorner, otherCorners, edgeWhitening, deepestNick, scratches, spots, printLine, crease) with every weight >= 0 (ridge, lambda 6 on standardised features), the weighted sum (wear score) mapped to PSA grades by isotonic regression (never rising, each step on at least 3 photos); range = 10th-90th percentile of leave-one-out misses, under and from 10 px/mm apart; figures leave-one-out against the best constant guess (the median grade of all the photos)."
  },
  "model": {
    "centeringWhenNotMeasurable": 8.2,
    "weights": {
      "centeringOffset": 0,
      "worstCorner": 0.4292,
      "otherCorners": 0.1848,
      "edgeWhitening": 0.0448,
      "deepestNick": 0,
      "scratches": 0.0166,
      "spots": 1.2316,
      "printLine": 0,
      "crease": 0
    },
    "scoreToGrade": [
      [
        0.4148,
        8.67
      ],
      [
        1.0033,
        7.75
      ],
      [
        1.8076,
        7.71
      ],
      [
        2.2443,
        5.38
      ],
      [
        2.8212,
        5.33
      ],
      [
        3.6426,
        3
      ]
    ],
    "range": {
      "fullDetail": {
        "below": -0.87,
        "above": 3.36
      },
      "coarse": {
        "below": -5.54,
        "above": 3.83
      }
    },
    "withinOne": 0.31,
    "beatsConstantGuess": false
  },
  "crossValidated": {
    "estimate": {
      "count": 70,
      "spearman": -0.018,
      "exact": 0.171,
      "withinOne": 0.314,
      "withinTwo": 0.486,
      "meanAbsError": 2.371
    },
    "constantGuess": {
      "count": 70,
      "spearman": null,
      "exact": 0.186,
      "withinOne": 0.529,
      "withinTwo": 0.729,
      "meanAbsError": 2.086
    },
    "engineOverallGrade": {
      "count": 70,
      "spearman": 0.109,
      "exact": 0.071,
      "withinOne": 0.271,
      "withinTwo": 0.586,
      "meanAbsError": 2.317
    }
  }
});
