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
    "date": "2026-11-28",
    "engineVersion": "41b3a9f89750",
    "method": "npm run fit:grades on graded/labels.json: PSA grade regressed on 9 wear features (centeringOffset, worstCorner, otherCorners, edgeWhitening, deepestNick, scratches, spots, printLine, crease) with every weight >= 0 (ridge, lambda 6 on standardised features), the weighted sum (wear score) mapped to PSA grades by isotonic regression (never rising, each step on at least 3 photos); range = 10th-90th percentile of leave-one-out misses, under and from 10 px/mm apart; figures leave-one-out against the best constant guess (the median grade of all the photos)."
  },
  "model": {
    "centeringWhenNotMeasurable": 8.2,
    "weights": {
      "centeringOffset": 0.0006,
      "worstCorner": 0.3739,
      "otherCorners": 0.0317,
      "edgeWhitening": 0,
      "deepestNick": 0,
      "scratches": 0.1936,
      "spots": 0.8637,
      "printLine": 0,
      "crease": 0
    },
    "scoreToGrade": [
      [
        0.4309,
        8.25
      ],
      [
        0.9495,
        8.22
      ],
      [
        1.3164,
        7.5
      ],
      [
        1.5624,
        7
      ],
      [
        1.7181,
        6.82
      ],
      [
        2.3496,
        5.45
      ]
    ],
    "range": {
      "fullDetail": {
        "below": -1.13,
        "above": 2.78
      },
      "coarse": {
        "below": -5.18,
        "above": 3.55
      }
    },
    "withinOne": 0.36,
    "beatsConstantGuess": false
  },
  "crossValidated": {
    "estimate": {
      "count": 64,
      "spearman": -0.068,
      "exact": 0.203,
      "withinOne": 0.359,
      "withinTwo": 0.563,
      "meanAbsError": 2.125
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
      "spearman": 0.033,
      "exact": 0.078,
      "withinOne": 0.266,
      "withinTwo": 0.641,
      "meanAbsError": 2.114
    }
  }
});
