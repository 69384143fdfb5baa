import { describe, expect, it } from 'vitest';
import { parseSlabLabel } from '../../src/domain/grading/index.ts';

// A slab's label as OCR reads it → the grader and the grade, or null (the card counts as raw). Certificate numbers,
// years, card numbers and subgrades are never the grade, and no grader is guessed from text that names none.

describe('reading a slab label', () => {
  it.each([
    ['PSA 10, cert and year beside it', '1999 POKEMON GAME  GEM MT 10\nCHARIZARD-HOLO  84512377\nPSA', { company: 'PSA', grade: 10 }],
    ['PSA 9 with the card number', '2016 POKEMON XY EVOLUTIONS #11\nCHARIZARD-HOLO MINT 9\n41234567 PSA', { company: 'PSA', grade: 9 }],
    ['PSA 8.5 NM-MT+', 'PSA\n2000 POKEMON NEO\nLUGIA-HOLO NM-MT+ 8.5\n55501234', { company: 'PSA', grade: 8.5 }],
    ['PSA 1 (PR)', 'PSA 1999 TOPPS\nPIKACHU PR 1\n12345678', { company: 'PSA', grade: 1 }],
    ['misread PSA and 10 (P5A, 1O)', 'P5A\n2023 POKEMON GEM MT 1O\n71234990', { company: 'PSA', grade: 10 }],
    ['BGS as BECKETT with subgrades', 'BECKETT GRADING\n9.5 GEM MINT\nCENTERING 10 CORNERS 9.5 EDGES 9 SURFACE 9.5\n0012345678', { company: 'BGS', grade: 9.5 }],
    ['BGS misread as 8GS', '8GS 2021 POKEMON\nUMBREON VMAX\nPRISTINE 10\n0011223344', { company: 'BGS', grade: 10 }],
    ['BECKETT with one letter misread', 'BECKEIT\nMINT 9\n0009876543', { company: 'BGS', grade: 9 }],
    ['CGC next to its grade', 'CGC 9.5\nMINT+\n2022 Pokemon Lost Origin Giratina V\n4109876001', { company: 'CGC', grade: 9.5 }],
    ['SGC 10 GEM MINT', 'SGC\n10 GEM MINT\n1999 Pokemon Base Set Charizard #4/102\n1234567', { company: 'SGC', grade: 10 }],
    ['TAG 9 MINT', 'TAG\n2020 POKEMON VIVID VOLTAGE\nPIKACHU VMAX MINT 9\nA1B2C3D4', { company: 'TAG', grade: 9 }],
    ['AGS 8 NM-MT', 'AGS\nNM-MT 8\n2019 HIDDEN FATES\nAGS-0012345', { company: 'AGS', grade: 8 }],
    ['a TAG TEAM card in a PSA slab', '2019 POKEMON SM TEAM UP\nPIKACHU & ZEKROM GX TAG TEAM\nGEM MT 10 PSA 60012345', { company: 'PSA', grade: 10 }],
    ['a grade read in glued words', 'PSA GEMMT10 47779123', { company: 'PSA', grade: 10 }],
  ])('%s', (_, text, expected) => {
    expect(parseSlabLabel(text)).toEqual(expected);
  });

  it.each([
    ['no grader named', '1999 POKEMON GAME\nCHARIZARD-HOLO GEM MT 10\n84512377'],
    ['a grader but no grade, only a year and a cert', 'PSA\n1999 POKEMON GAME\nCHARIZARD-HOLO\n84512377'],
    ['a grader and only a card number', 'PSA 2016 POKEMON #4 CHARIZARD 4/102'],
    ['a grade out of range', 'PSA GEM MT 11'],
    ['a grade in a step no grader uses', 'CGC GEM MINT 9.3'],
    ['two graders named', 'PSA GEM MT 10\nBGS 9.5 GEM MINT'],
    ['subgrades alone', 'BECKETT\nCENTERING 10 CORNERS 9.5 EDGES 9 SURFACE 9.5'],
    ['garbage', '~~ ^%$ ;;; ||| 7 ..'],
    ['a card name only (TAG TEAM)', 'PIKACHU & ZEKROM GX TAG TEAM 33/181'],
    ['nothing', ''],
  ])('%s → raw', (_, text) => {
    expect(parseSlabLabel(text)).toBeNull();
  });
});
