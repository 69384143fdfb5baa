import { describe, expect, it } from 'vitest';
import { parseSlabLabel } from '../../src/domain/grading/index.ts';

// A slab's label as OCR reads it → the grader and the grade, or null (the card counts as raw). Certificate numbers,
// years, card numbers and subgrades are never the grade, and no grader is guessed from text that names none.

describe('reading a slab label', () => {
  it.each([
    ['PSA 10, cert and year beside it', '1999 POKEMON GAME  GEM MT 10\nCHARIZARD-HOLO  84512377\nPSA', { company: 'PSA', grade: 10, descriptor: 'GEM MT', cert: '84512377' }],
    ['PSA 9 with the card number', '2016 POKEMON XY EVOLUTIONS #11\nCHARIZARD-HOLO MINT 9\n41234567 PSA', { company: 'PSA', grade: 9, descriptor: 'MINT', cert: '41234567' }],
    ['PSA 8.5 NM-MT+', 'PSA\n2000 POKEMON NEO\nLUGIA-HOLO NM-MT+ 8.5\n55501234', { company: 'PSA', grade: 8.5, descriptor: 'NM-MT+', cert: '55501234' }],
    ['PSA 1 (PR)', 'PSA 1999 TOPPS\nPIKACHU PR 1\n12345678', { company: 'PSA', grade: 1, descriptor: 'PR', cert: '12345678' }],
    ['misread PSA and 10 (P5A, 1O)', 'P5A\n2023 POKEMON GEM MT 1O\n71234990', { company: 'PSA', grade: 10, descriptor: 'GEM MT', cert: '71234990' }],
    ['BGS as BECKETT with subgrades', 'BECKETT GRADING\n9.5 GEM MINT\nCENTERING 10 CORNERS 9.5 EDGES 9 SURFACE 9.5\n0012345678', { company: 'BGS', grade: 9.5, descriptor: 'GEM MINT', cert: '0012345678' }],
    ['BGS misread as 8GS', '8GS 2021 POKEMON\nUMBREON VMAX\nPRISTINE 10\n0011223344', { company: 'BGS', grade: 10, descriptor: 'PRISTINE', cert: '0011223344' }],
    ['BECKETT with one letter misread', 'BECKEIT\nMINT 9\n0009876543', { company: 'BGS', grade: 9, descriptor: 'MINT', cert: '0009876543' }],
    ['CGC next to its grade', 'CGC 9.5\nMINT+\n2022 Pokemon Lost Origin Giratina V\n4109876001', { company: 'CGC', grade: 9.5, descriptor: null, cert: '4109876001' }],
    ['SGC 10 GEM MINT', 'SGC\n10 GEM MINT\n1999 Pokemon Base Set Charizard #4/102\n1234567', { company: 'SGC', grade: 10, descriptor: 'GEM MINT', cert: '1234567' }],
    ['TAG 9 MINT', 'TAG\n2020 POKEMON VIVID VOLTAGE\nPIKACHU VMAX MINT 9\nA1B2C3D4', { company: 'TAG', grade: 9, descriptor: 'MINT', cert: 'A1B2C3D4' }],
    ['AGS 8 NM-MT', 'AGS\nNM-MT 8\n2019 HIDDEN FATES\nAGS-0012345', { company: 'AGS', grade: 8, descriptor: 'NM MT', cert: 'AGS-0012345' }],
    ['a TAG TEAM card in a PSA slab', '2019 POKEMON SM TEAM UP\nPIKACHU & ZEKROM GX TAG TEAM\nGEM MT 10 PSA 60012345', { company: 'PSA', grade: 10, descriptor: 'GEM MT', cert: '60012345' }],
    ['a grade read in glued words', 'PSA GEMMT10 47779123', { company: 'PSA', grade: 10, descriptor: 'GEM MT', cert: '47779123' }],
  ])('%s', (_, text, expected) => {
    expect(parseSlabLabel(text)).toEqual(expected);
  });

  it.each([
    ['no grader named, no cert', '1999 POKEMON GAME\nCHARIZARD-HOLO GEM MT 10'],
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

  // A PSA label as tesseract reads it line by line: no "PSA" anywhere (the logo is a graphic), the grade's words at
  // the end of the card's name line, its number at the end of the next, the cert below. Texts written for these
  // tests in the labels' layout; the misreads are the kinds OCR makes (a dash as "—", "vG |", a letter for another).
  it.each([
    ['MINT over 9, the cert below', '2005 POKEMON JAPANESE #003\nMEW EX - HOLO MINT\nHOLON PHANTOM 9\n65200248', { company: 'PSA', grade: 9, descriptor: 'MINT', cert: '65200248' }],
    ['GEM MT over 10, a barcode read as junk', '2019 P.M. JPN. SUN & MOON #060\nFA/RAYQUAZA GX GEM MT\nDRAGON STORM 10\n|||||||| |||| 70123456', { company: 'PSA', grade: 10, descriptor: 'GEM MT', cert: '70123456' }],
    ['NM-MT read with spaces round its dash', '2004 POKEMON JAPANESE #014\nDARK TYRANITAR NM — MT\nSILVER DECK 8\n[IIT 70111111', { company: 'PSA', grade: 8, descriptor: 'NM-MT', cert: '70111111' }],
    ['EX-MT read as "EX -MT"', '{ 2006 P.M. JAPANESE PROMO #032\nLATIAS EX — HOLO EX -MT\nSUBSCRIPTION 6\n67000027', { company: 'PSA', grade: 6, descriptor: 'EX-MT', cert: '67000027' }],
    ['VG with a stray mark after it', '1996 PM. JAPANESE BASIC #006\nCHARIZARD — HOLO vG |\nNO RARITY SYMBOL 3\n65500001', { company: 'PSA', grade: 3, descriptor: 'VG', cert: '65500001' }],
    ['NM misread as NY: its grade below agrees', '2005 POKEMON JAPANESE #093\nSALAMENCE EX — HOLO NY\n1ST ED. 7\n70400070', { company: 'PSA', grade: 7, descriptor: 'NM', cert: '70400070' }],
    ['the right-hand column read alone, blank lines between', 'ON #060\nGEM MT\n\n10\n70496000\n', { company: 'PSA', grade: 10, descriptor: 'GEM MT', cert: '70496000' }],
    ['a half grade, NM-MT+ over 8.5', '1999 POKEMON GAME #4\nCHARIZARD-HOLO NM-MT+\n1ST EDITION 8.5\n1234567890', { company: 'PSA', grade: 8.5, descriptor: 'NM-MT+', cert: '1234567890' }],
    ['a cert with a letter O for a zero', '2000 POKEMON NEO #9\nLUGIA-HOLO GOOD\n2\n5O501234', { company: 'PSA', grade: 2, descriptor: 'GOOD', cert: '50501234' }],
    ['AUTHENTIC: genuine, no grade', '1999 POKEMON GAME #58\nPIKACHU AUTHENTIC\n60000058', { company: 'PSA', grade: null, descriptor: 'AUTHENTIC', cert: '60000058' }],
    ['a TAG TEAM card in a PSA slab, no PSA text', '2019 P.M. JPN. SUN & MOON #224\nFA/PIKACHU & ZEKROM GX GEM MT\nTAG TEAM GX ALL STARS 10\n72700001', { company: 'PSA', grade: 10, descriptor: 'GEM MT', cert: '72700001' }],
  ])('a PSA label by its layout: %s', (_, text, expected) => {
    expect(parseSlabLabel(text)).toEqual(expected);
  });

  it.each([
    ['a card name ending in EX over its hit points', 'CHARIZARD EX\n5\n180 HP'],
    ['a card name ending in EX over a number, no cert', 'MEW EX\n5\nBASIC POKEMON'],
    ['descriptor and grade that disagree (MINT over 7)', '2005 POKEMON JAPANESE #003\nMEW EX - HOLO MINT\nHOLON 7\n65200248'],
    ['a TAG TEAM card\'s text', 'TAG TEAM\nPIKACHU & ZEKROM GX\n240 HP\nFull Heal Energy 33/181'],
    ['a raw card\'s collector number and copyright', 'Illus. Mitsuhiro Arita\n4/102 ★\n©1995, 96, 98 Nintendo'],
    ['a descriptor with its number but no cert and no PSA', 'PIKACHU NM\nBASIC 7'],
    ['a cert that is too short', 'MEW EX - HOLO MINT\nHOLON 9\n6520024'],
    ['a label naming another grader in PSA\'s layout', 'CGC\nMEW EX MINT\nHOLON 10\n65200248'],
    ['a grade beside its words on one line and a cert, no grader named (CGC and TAG print so too)', '2022 Pokemon Lost Origin\nGiratina V MINT 9\n4109876001'],
  ])('not a label: %s → raw', (_, text) => {
    expect(parseSlabLabel(text)).toBeNull();
  });
});
