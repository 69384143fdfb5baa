import { describe, expect, it } from 'vitest';
import type { SlabLabel } from '../../src/contracts/grading.ts';
import { cardDecider, gradeScale, isGradeOnScale, type CardDeleted, type CardGraded, type ProfessionalGradeReported, type ReportProfessionalGrade } from '../../src/domain/cards/index.ts';
import { specify } from '../accounts/decider-spec.ts';
import { cardGradedData, gradedCard, hash } from './graded-card-fixture.ts';

// Issue 33: the grade a card got from a grading company, reported by its owner, with the engine's estimate at the time.

const given = specify(cardDecider);
const engine = { vision: 'abcdef123456', calibration: '2026-11-27@2e372bad552e' };
const result = gradedCard();
const graded: CardGraded = { type: 'CardGraded', data: cardGradedData({ result, engine }) };
const { cardId } = graded.data;
const psa = result.psaEstimate!;
const estimate = {
  psaEstimate: psa.canTell ? psa.grade : null,
  overallGrade: result.overallGrade,
  grades: result.grades,
  compared: psa.canTell ? psa.grade : result.overallGrade,
  comparedFrom: psa.canTell ? ('psaEstimate' as const) : ('overallGrade' as const),
  engine,
};

const report = (overrides: Partial<ReportProfessionalGrade['data']> = {}): ReportProfessionalGrade => ({
  type: 'ReportProfessionalGrade',
  data: { cardId, reportId: 'r1', requestedBy: 'user:u1', company: 'PSA', grade: 9, cert: '12345678', slabPhoto: null, slabLabel: null, source: 'owner', reportedAt: '2026-04-01T10:00:00.000Z', ...overrides },
});
const reported = (command: ReportProfessionalGrade, verified = false): ProfessionalGradeReported => {
  const { requestedBy, ...rest } = command.data;
  return { type: 'ProfessionalGradeReported', data: { ...rest, reportedBy: requestedBy, verified, estimate } };
};
const photo = { hash: hash(9), contentType: 'image/jpeg', sourceUrl: null };
const label = (company: SlabLabel['company'], grade: number): SlabLabel => ({ company, grade, descriptor: null, cert: '12345678' });

describe('reporting a professional grade', () => {
  it('records the report with the engine estimate the card was graded with', () => {
    given([graded]).when(report()).then([reported(report())]);
  });

  it('compares the PSA estimate where the engine could tell, else the overall grade', () => {
    const unsure = gradedCard();
    unsure.psaEstimate = { ...psa, canTell: false, reason: 'blurred' };
    const data = cardGradedData({ result: unsure, engine });
    const [event] = cardDecider.decide(report(), cardDecider.evolve(cardDecider.initialState(), { type: 'CardGraded', data }));
    expect((event as ProfessionalGradeReported).data.estimate).toMatchObject({ psaEstimate: null, compared: unsure.overallGrade, comparedFrom: 'overallGrade' });
    const before = gradedCard();
    delete before.psaEstimate;
    const [old] = cardDecider.decide(report(), cardDecider.evolve(cardDecider.initialState(), { type: 'CardGraded', data: cardGradedData({ result: before, engine }) }));
    expect((old as ProfessionalGradeReported).data.estimate.comparedFrom).toBe('overallGrade');
  });

  it('is verified only when the slab photo reads the same company and grade', () => {
    const same = report({ slabPhoto: photo, slabLabel: label('PSA', 9) });
    given([graded]).when(same).then([reported(same, true)]);
    const otherGrade = report({ slabPhoto: photo, slabLabel: label('PSA', 8) });
    given([graded]).when(otherGrade).then([reported(otherGrade, false)]);
    const otherCompany = report({ slabPhoto: photo, slabLabel: label('BGS', 9) });
    given([graded]).when(otherCompany).then([reported(otherCompany, false)]);
    const unread = report({ slabPhoto: photo, slabLabel: null });
    given([graded]).when(unread).then([reported(unread, false)]);
  });

  it('the same report again records nothing; a correction supersedes it', () => {
    const first = reported(report());
    given([graded, first]).when(report({ reportId: 'r2' })).then([]);
    const corrected = report({ reportId: 'r2', grade: 8 });
    given([graded, first]).when(corrected).then([reported(corrected)]);
    const withPhoto = report({ reportId: 'r3', slabPhoto: photo, slabLabel: label('PSA', 9) });
    given([graded, first]).when(withPhoto).then([reported(withPhoto, true)]);
  });

  it('only the owner, signed in, on a card that exists', () => {
    given([graded]).when(report({ requestedBy: 'user:someone-else' })).thenRefuses('card_not_found');
    given([]).when(report()).thenRefuses('card_not_found');
    const deleted: CardDeleted = { type: 'CardDeleted', data: { cardId, owner: 'user:u1', deletedAt: '2026-03-02T08:00:00.000Z' } };
    given([graded, deleted]).when(report()).thenRefuses('card_not_found');
    const guestCard: CardGraded = { type: 'CardGraded', data: { ...graded.data, owner: 'guest:g1' } };
    given([guestCard]).when(report({ requestedBy: 'guest:g1' })).thenRefuses('sign_in_to_report');
  });

  it('refuses a grade the company does not give', () => {
    given([graded]).when(report({ grade: 9.5 })).thenRefuses('grade_not_on_scale');
    given([graded]).when(report({ grade: 0.5 })).thenRefuses('grade_not_on_scale');
    given([graded]).when(report({ grade: 8.25 })).thenRefuses('grade_not_on_scale');
    given([graded]).when(report({ company: 'BGS', grade: 11 })).thenRefuses('grade_not_on_scale');
    const bgs = report({ company: 'BGS', grade: 9.5 });
    given([graded]).when(bgs).then([reported(bgs)]);
  });
});

describe('grading scales', () => {
  it('PSA: whole grades 1-10 and halves 1.5-8.5; the others every half step 1-10', () => {
    expect(gradeScale('PSA')).toEqual([1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7, 7.5, 8, 8.5, 9, 10]);
    for (const company of ['BGS', 'CGC', 'SGC', 'TAG', 'AGS'] as const) expect(gradeScale(company)).toHaveLength(19);
    expect(isGradeOnScale('CGC', 9.5)).toBe(true);
    expect(isGradeOnScale('PSA', Number.NaN)).toBe(false);
  });
});
