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
    "engineVersion": "2e372bad552e",
    "method": "npm run fit:grades on graded/labels.json: PSA grade regressed on 9 wear features (centeringOffset, worstCorner, otherCorners, edgeWhitening, deepestNick, scratches, spots, printLine, crease) with every weight >= 0 (ridge, lambda 6 on standardised features), the weighted sum (wear score) mapped to PSA grades by isotonic regression (never rising, each step on at least 3 photos); range = 10th-90th percentile of leave-one-out misses, under and from 10 px/mm apart; figures leave-one-out against the best constant guess (the median grade of all the photos)."
  },
  "model": {
    "centeringWhenNotMeasurable": 10.8,
    "weights": {
      "centeringOffset": 0.0541,
      "worstCorner": 0,
      "otherCorners": 0.0249,
      "edgeWhitening": 0,
      "deepestNick": 0,
      "scratches": 0,
      "spots": 0.7736,
      "printLine": 0.8223,
      "crease": 0
    },
    "scoreToGrade": [
      [
        0.1712,
        8.67
      ],
      [
        0.972,
        8.23
      ],
      [
        1.4972,
        7.83
      ],
      [
        1.9616,
        6.13
      ],
      [
        3.1747,
        4.43
      ]
    ],
    "range": {
      "fullDetail": {
        "below": -1.24,
        "above": 2.36
      },
      "coarse": {
        "below": -5.57,
        "above": 3.13
      }
    },
    "withinOne": 0.41,
    "beatsConstantGuess": false
  },
  "crossValidated": {
    "estimate": {
      "count": 64,
      "spearman": 0.154,
      "exact": 0.266,
      "withinOne": 0.406,
      "withinTwo": 0.688,
      "meanAbsError": 1.953
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
      "spearman": 0.023,
      "exact": 0.109,
      "withinOne": 0.266,
      "withinTwo": 0.594,
      "meanAbsError": 2.242
    }
  }
});
