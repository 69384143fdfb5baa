import { describe, expect, it } from 'vitest';
import type { SideMeasurement } from '../../src/contracts/measurement.ts';
import { gradeCard } from '../../src/domain/grading/index.ts';
import type { FitRow } from '../../src/domain/grading/fit-psa-estimate.ts';
import { crossValidate, crossValidateWholeFit, fitPsaModel } from '../../src/domain/grading/fit-psa-estimate.ts';
import { PSA_CALIBRATION } from '../../src/domain/grading/psa-calibration.ts';
import type { PsaFeatureName, PsaModel } from '../../src/domain/grading/psa-estimate.ts';
import { CAN_TELL_CONFIDENCE, estimatePsaGrade, FULL_DETAIL_PX_PER_MM, PSA_FEATURE_NAMES, psaConfidence, sideFeatures } from '../../src/domain/grading/psa-estimate.ts';
import type { SideOptions } from './fixtures.ts';
import { side } from './fixtures.ts';

// The PSA estimate (GRADING.md §2b): monotone, deterministic, honest about what a photo cannot show; and the fit
// that makes it finds a known relationship.

const weights = (overrides: Partial<Record<PsaFeatureName, number>>) =>
  Object.fromEntries(PSA_FEATURE_NAMES.map((name) => [name, overrides[name] ?? 0])) as Record<PsaFeatureName, number>;

/** A model as a fit could give it, with every feature mattering, that can tell. */
const MODEL: PsaModel = {
  constantGuess: 8,
  centeringWhenNotMeasurable: 5,
  weights: weights({ centeringOffset: 0.05, worstCorner: 0.6, otherCorners: 0.2, edgeWhitening: 0.3, deepestNick: 0.3, scratches: 0.4, spots: 0.3, printLine: 0.5, crease: 3 }),
  scoreToGrade: [
    [0.2, 10],
    [1, 9],
    [2, 8],
    [3.5, 6],
    [6, 3],
    [9, 1],
  ],
  byResolution: {
    fullDetail: { below: -0.8, above: 0.9, withinOne: 0.8, beatsConstantGuess: true },
    coarse: { below: -2.1, above: 1.7, withinOne: 0.8, beatsConstantGuess: true },
  },
};

function at(pxPerMm: number, measurement: SideMeasurement, confidence = measurement.confidence): SideMeasurement {
  return { ...measurement, confidence, quality: { ...measurement.quality, sourcePxPerMm: pxPerMm } };
}

const estimate = (options: SideOptions, pxPerMm = 12) => estimatePsaGrade({ front: at(pxPerMm, side(options), 0.9) }, MODEL);

describe('the PSA estimate', () => {
  it('never rises with more wear of any kind', () => {
    const base: SideOptions = { centering: { horizontal: 55, vertical: 52 }, corners: { topLeft: 0.3 }, scratchLengthMm: 3 };
    const worse: SideOptions[] = [
      { ...base, centering: { horizontal: 70, vertical: 52 } },
      { ...base, corners: { topLeft: 1.5 } },
      { ...base, corners: { topLeft: 0.3, bottomRight: 0.8 } },
      { ...base, edgeWhitening: { top: 12 } },
      { ...base, nicks: { left: [0.6] } },
      { ...base, scratchLengthMm: 40 },
      { ...base, spotCount: 4 },
      { ...base, printLine: true },
      { ...base, crease: true },
    ];
    const before = estimate(base);
    for (const options of worse) {
      const after = estimate(options);
      expect(after.grade).toBeLessThanOrEqual(before.grade);
      expect(after.low).toBeLessThanOrEqual(before.low);
    }
    // and strictly lower for a large defect, so the test could fail on a model that ignored wear
    expect(estimate({ ...base, corners: { topLeft: 3 }, crease: true }).grade).toBeLessThan(before.grade);
  });

  it('falls step by step as one corner wears, over a sweep of sizes', () => {
    let previous = Infinity;
    for (let mm = 0; mm <= 5; mm += 0.25) {
      const { grade } = estimate({ corners: { topLeft: mm } });
      expect(grade).toBeLessThanOrEqual(previous);
      previous = grade;
    }
    expect(previous).toBeLessThan(estimate({}).grade);
  });

  it('gives the same result for the same measurements, in whole or half grades, with a range that holds the grade', () => {
    for (const options of [{}, { corners: { topLeft: 1.2 } }, { scratchLengthMm: 25, spotCount: 2 }, { crease: true }, { centering: null }] as SideOptions[]) {
      const first = estimate(options);
      expect(estimate(options)).toEqual(first);
      expect(JSON.stringify(estimate(options))).toBe(JSON.stringify(first));
      for (const value of [first.grade, first.low, first.high]) {
        expect(Number.isInteger(value * 2)).toBe(true);
        expect(value).toBeGreaterThanOrEqual(1);
        expect(value).toBeLessThanOrEqual(10);
      }
      expect(first.low).toBeLessThanOrEqual(first.grade);
      expect(first.high).toBeGreaterThanOrEqual(first.grade);
    }
  });

  it('is a clean card near 10 and a creased, worn one low', () => {
    expect(estimate({}).grade).toBeGreaterThanOrEqual(9.5);
    expect(estimate({ crease: true, corners: { topLeft: 3, topRight: 2 }, scratchLengthMm: 60 }).grade).toBeLessThanOrEqual(4);
  });

  it('loses confidence below full detail, steadily with resolution, and widens its range on coarse photos', () => {
    const card: SideOptions = { corners: { topLeft: 0.5 } };
    const fine = estimate(card, FULL_DETAIL_PX_PER_MM);
    expect(estimate(card, 20).confidence).toBe(fine.confidence);
    let previous = fine.confidence;
    for (const px of [9, 7.5, 6, 5, 4.5]) {
      const coarse = estimate(card, px);
      expect(coarse.confidence).toBeLessThan(previous);
      expect(coarse.high - coarse.low).toBeGreaterThan(fine.high - fine.low);
      previous = coarse.confidence;
    }
    expect(psaConfidence(MODEL, 5, 1)).toBeLessThan(psaConfidence(MODEL, 10, 1));
  });

  it('takes the one axis measured where centering is not measurable, and the typical centering where no axis is', () => {
    const leftRightOnly = (share: number): SideMeasurement => ({
      ...side({ centering: null }),
      centering: { measurable: false, reason: 'no border found on the top and bottom sides', horizontal: { firstMm: share / 10, secondMm: (100 - share) / 10, worstShare: share, ratio: `${share}/${100 - share}` } },
    });
    expect(sideFeatures(leftRightOnly(70)).centeringOffset).toBe(20);
    expect(sideFeatures(side({ centering: null })).centeringOffset).toBeNull();
    // Further off centre that way never raises the estimate.
    expect(estimatePsaGrade({ front: at(12, leftRightOnly(80), 0.9) }, MODEL).grade).toBeLessThan(estimatePsaGrade({ front: at(12, leftRightOnly(52), 0.9) }, MODEL).grade);
  });

  it('says it cannot tell, with a reason, below the confidence it needs', () => {
    const sharp = estimate({}, 12);
    expect(sharp.canTell).toBe(true);
    expect(sharp.reason).toBeNull();
    const doubtful = estimatePsaGrade({ front: at(4.5, side({}), 0.2) }, MODEL);
    expect(doubtful.confidence).toBeLessThan(CAN_TELL_CONFIDENCE);
    expect(doubtful.canTell).toBe(false);
    expect(doubtful.reason).toMatch(/px\/mm/);
  });

  it('never claims to tell at a resolution where the model did not beat the constant guess', () => {
    const fullDetailOnlyFixed: PsaModel = { ...MODEL, byResolution: { ...MODEL.byResolution, fullDetail: { ...MODEL.byResolution.fullDetail, beatsConstantGuess: false } } };
    const sharp = estimatePsaGrade({ front: at(12, side({}), 1) }, fullDetailOnlyFixed);
    expect(sharp.canTell).toBe(false);
    expect(sharp.reason).toMatch(/fixed guess/);
    // Its answer is then that guess where the measurements' own range allows it, else the nearest end of that range:
    // a clean card's range (9–10) is above the guess, a creased and scratched one's (4–6) below it.
    const answers = ([{}, { corners: { topLeft: 1 } }, { scratchLengthMm: 60, crease: true }] satisfies SideOptions[]).map((options) =>
      estimatePsaGrade({ front: at(12, side(options), 1) }, fullDetailOnlyFixed),
    );
    expect(answers.map((a) => [a.low, a.grade, a.high])).toEqual([
      [9, 9, 10],
      [7.5, 8, 9.5],
      [4, 6, 6],
    ]);
    for (const answer of answers) expect(answer.canTell).toBe(false);
    expect(estimatePsaGrade({ front: at(12, side({ crease: true }), 1) }, MODEL).grade).toBeLessThan(MODEL.constantGuess);
    // The other class keeps its own answer: a coarse photo of the same card can tell where its class beat the guess.
    const coarseCanTell: PsaModel = { ...fullDetailOnlyFixed, byResolution: { ...fullDetailOnlyFixed.byResolution, coarse: { ...MODEL.byResolution.coarse, withinOne: 1 } } };
    expect(estimatePsaGrade({ front: at(9, side({}), 1) }, coarseCanTell).canTell).toBe(true);
  });

  it('takes its confidence and range from the cross-validated figures of its own resolution class', () => {
    const model: PsaModel = {
      ...MODEL,
      byResolution: { fullDetail: { ...MODEL.byResolution.fullDetail, withinOne: 0.9 }, coarse: { below: -3, above: 3, withinOne: 0.3, beatsConstantGuess: true } },
    };
    const fine = estimatePsaGrade({ front: at(FULL_DETAIL_PX_PER_MM, side({}), 1) }, model);
    const coarse = estimatePsaGrade({ front: at(FULL_DETAIL_PX_PER_MM - 0.1, side({}), 1) }, model);
    expect(fine.confidence).toBe(0.9);
    expect(coarse.confidence).toBeLessThanOrEqual(0.3);
    expect(coarse.high - coarse.low).toBeGreaterThan(fine.high - fine.low);
  });

  it('is on the graded card, from the measurements, and named in the condition analysis', () => {
    const card = gradeCard({ front: side({ corners: { topLeft: 1 } }) });
    expect(card.psaEstimate).toEqual(estimatePsaGrade({ front: side({ corners: { topLeft: 1 } }) }));
    expect(card.conditionAnalysis).toContain('PSA estimate');
  });
});

describe('the shipped calibration', () => {
  it('says which photos fitted it, when, on which engine, how, and with what cross-validated figures', () => {
    const { provenance, crossValidated } = PSA_CALIBRATION;
    expect(provenance.fittedOn.length).toBeGreaterThan(0);
    for (const set of provenance.fittedOn) {
      expect(set.set).toMatch(/\w/);
      expect(set.graded).toBeLessThanOrEqual(set.photos);
    }
    expect(provenance.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(provenance.engineVersion).toMatch(/^[0-9a-f]{12}$/);
    expect(provenance.method).toMatch(/leave-one-out/);
    expect(crossValidated.estimate.count).toBe(provenance.fittedOn.reduce((s, f) => s + f.graded, 0));
    expect(crossValidated.constantGuess.count).toBe(crossValidated.estimate.count);
    for (const figures of Object.values(PSA_CALIBRATION.model.byResolution)) {
      expect(figures.withinOne).toBeGreaterThanOrEqual(0);
      expect(figures.withinOne).toBeLessThanOrEqual(1);
      expect(figures.below).toBeLessThanOrEqual(figures.above);
    }
  });

  it('is monotone: weights never negative, its score table never rising', () => {
    const { model } = PSA_CALIBRATION;
    for (const name of PSA_FEATURE_NAMES) expect(model.weights[name]).toBeGreaterThanOrEqual(0);
    for (let i = 1; i < model.scoreToGrade.length; i++) {
      expect(model.scoreToGrade[i]![0]).toBeGreaterThan(model.scoreToGrade[i - 1]![0]);
      expect(model.scoreToGrade[i]![1]).toBeLessThanOrEqual(model.scoreToGrade[i - 1]![1]);
    }
    expect(Object.isFrozen(model.weights)).toBe(true);
  });
});

describe('fitting the estimate', () => {
  /** Synthetic photos whose PSA grade is a known falling function of corner and scratch wear, plus fixed noise. */
  function syntheticRows(count: number): FitRow[] {
    const rows: FitRow[] = [];
    for (let i = 0; i < count; i++) {
      const corner = ((i * 37) % 50) / 10; // 0..4.9 mm
      const scratch = ((i * 53) % 41) * 2; // 0..80 mm
      const features = sideFeatures(side({ corners: { topLeft: corner }, scratchLengthMm: scratch, centering: { horizontal: 50 + ((i * 7) % 20), vertical: 50 } }));
      const noise = [0.3, -0.2, 0, 0.1, -0.3][i % 5]!;
      const truth = Math.min(10, Math.max(1, Math.round(10.5 - 1.2 * features.worstCorner! - 0.6 * features.scratches! + noise)));
      rows.push({ features, truth, pxPerMm: i % 3 === 0 ? 6 : 12 });
    }
    return rows;
  }

  it('recovers the relationship: weight on what matters, the order of the grades, better than a constant', () => {
    const rows = syntheticRows(60);
    const { model, crossValidation } = fitPsaModel(rows);
    expect(model.weights.worstCorner).toBeGreaterThan(0);
    expect(model.weights.scratches).toBeGreaterThan(0);
    // Features that play no part get little or nothing.
    expect(model.weights.spots + model.weights.crease + model.weights.deepestNick).toBe(0);
    expect(crossValidation.estimate.spearman!).toBeGreaterThan(0.85);
    expect(crossValidation.estimate.withinOne).toBeGreaterThan(0.8);
    expect(crossValidation.estimate.meanAbsError).toBeLessThan(crossValidation.constantGuess.meanAbsError / 2);
    for (const figures of [model.byResolution.fullDetail, model.byResolution.coarse]) {
      expect(figures.beatsConstantGuess).toBe(true);
      expect(figures.below).toBeLessThanOrEqual(0);
      expect(figures.above).toBeGreaterThanOrEqual(0);
    }
  });

  it('finds nothing in noise: grades unrelated to the features do not beat the constant guess', () => {
    // Grades from a fixed linear congruential sequence: no relation to the features' own patterns.
    let state = 12345;
    const rows = syntheticRows(60).map((row) => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return { ...row, truth: 1 + Math.floor((state / 2147483648) * 10) };
    });
    const cv = crossValidate(rows);
    expect(cv.estimate.meanAbsError).toBeGreaterThanOrEqual(cv.constantGuess.meanAbsError * 0.9);
  });

  it('judges each resolution class on its own photos: one whose grades the measurements do not predict may not claim to tell', () => {
    // Coarse photos whose grades follow the wear; full-detail ones whose grades run against it (what a measurement
    // misread at one resolution looks like to the fit).
    const rows = syntheticRows(90).map((row, i) => (i % 3 === 0 ? { ...row, pxPerMm: 12, truth: 11 - row.truth } : { ...row, pxPerMm: 6 }));
    const { model, crossValidation } = fitPsaModel(rows);
    expect(model.byResolution.coarse.beatsConstantGuess).toBe(true);
    expect(model.byResolution.fullDetail.beatsConstantGuess).toBe(false);
    expect(model.byResolution.fullDetail.withinOne).toBeLessThan(model.byResolution.coarse.withinOne);
    const sharpPhoto = estimatePsaGrade({ front: at(12, side({ corners: { topLeft: 1 } }), 1) }, model);
    expect(sharpPhoto.canTell).toBe(false);
    expect(sharpPhoto.reason).toMatch(/fixed guess/);
    // That class answers the guess (the median grade of all the photos) within its measured range, and the figures are
    // of those answers: better than the measurements' own there, as the class's measurements did worse than the guess.
    const truths = rows.map((r) => r.truth).sort((a, b) => a - b);
    expect(model.constantGuess).toBe(truths[Math.floor((truths.length - 1) / 2)]);
    expect(sharpPhoto.grade).toBe(Math.min(sharpPhoto.high, Math.max(sharpPhoto.low, model.constantGuess)));
    expect(crossValidation.estimate.meanAbsError).toBeLessThan(crossValidation.measurementsAlone.meanAbsError);
  });

  it('left out as a whole (which classes answer the guess chosen without the photo too) does as well on a relationship that holds', () => {
    const rows = syntheticRows(45);
    const whole = crossValidateWholeFit(rows);
    expect(whole.count).toBe(45);
    expect(whole.spearman!).toBeGreaterThan(0.8);
    expect(Math.abs(whole.meanAbsError - fitPsaModel(rows).crossValidation.estimate.meanAbsError)).toBeLessThan(0.3);
  });

  it('is deterministic: the same rows give the same model', () => {
    const rows = syntheticRows(30);
    expect(JSON.stringify(fitPsaModel(rows).model)).toBe(JSON.stringify(fitPsaModel(rows).model));
  });
});
