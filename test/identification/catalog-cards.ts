import type { NamedCard } from './named-card.ts';

// Drawn cards whose names and numbers are real catalogue entries (../shared/catalog), one from each of 22 older sets
// (the number alone at the bottom right) and 22 newer ones (a zero-padded number at the bottom left, after the
// regulation mark since Sword & Shield and the set code since Scarlet & Violet). `id` is the catalogue card they must
// be identified as.

export interface CatalogTestCard extends NamedCard {
  id: string;
}

const vintage: Omit<CatalogTestCard, 'seed'>[] = [
  { id: 'base1-2', name: 'Blastoise', number: '2/102' },
  { id: 'base2-2', name: 'Electrode', number: '2/64', font: 'Liberation Sans' },
  { id: 'base3-31', name: 'Arbok', number: '31/62', font: 'DejaVu Serif' },
  { id: 'base5-47', name: 'Magikarp', number: '47/82' },
  { id: 'gym1-88', name: "Misty's Seel", number: '88/132', font: 'Liberation Sans' },
  { id: 'gym2-11', name: "Lt. Surge's Raichu", number: '11/132' },
  { id: 'neo1-42', name: 'Noctowl', number: '42/111', font: 'DejaVu Serif' },
  { id: 'neo2-36', name: 'Yanma', number: '36/75' },
  { id: 'neo4-61', name: 'Cyndaquil', number: '61/105', font: 'Liberation Sans' },
  { id: 'ecard1-107', name: 'Dratini', number: '107/165' },
  { id: 'ex3-4', name: 'Flygon', number: '4/97', font: 'DejaVu Serif' },
  { id: 'ex7-70', name: 'Psyduck', number: '70/109' },
  { id: 'dp1-104', name: 'Wurmple', number: '104/130', font: 'Liberation Sans' },
  { id: 'pl1-9', name: 'Giratina', number: '9/127' },
  { id: 'hgss1-70', name: 'Koffing', number: '70/123', font: 'DejaVu Serif' },
  { id: 'bw1-44', name: 'Joltik', number: '44/114' },
  { id: 'xy1-48', name: 'Arbok', number: '48/146', font: 'Liberation Sans' },
  { id: 'base4-97', name: 'Venonat', number: '97/130' },
  { id: 'neo3-25', name: 'Starmie', number: '25/64', font: 'DejaVu Serif' },
  { id: 'ecard2-115', name: 'Voltorb', number: '115/147' },
  { id: 'ex12-89', name: 'Walrein ex', number: '89/92', font: 'Liberation Sans' },
  { id: 'dp3-81', name: 'Carvanha', number: '81/132' },
];

const modern: Omit<CatalogTestCard, 'seed'>[] = [
  { id: 'sm1-55', name: 'Golbat', number: '055/149' },
  { id: 'sm3-68', name: 'Lunatone', number: '068/147', font: 'Liberation Sans' },
  { id: 'sm12-60', name: 'Swanna', number: '060/236' },
  { id: 'swsh1-74', name: 'Yamper', number: '074/202', regulationMark: 'D', font: 'DejaVu Serif' },
  { id: 'swsh4-113', name: 'Galarian Perrserker', number: '113/185', regulationMark: 'D' },
  { id: 'swsh7-30', name: 'Vaporeon VMAX', number: '030/203', regulationMark: 'E', font: 'Liberation Sans' },
  { id: 'swsh9-14', name: 'Shaymin VSTAR', number: '014/172', regulationMark: 'F' },
  { id: 'swsh12-170', name: 'Serperior V', number: '170/195', regulationMark: 'F', font: 'DejaVu Serif' },
  { id: 'sv1-65', name: 'Magnezone ex', number: '065/198', setCode: 'SVI', regulationMark: 'G' },
  { id: 'sv2-2', name: 'Skiploom', number: '002/193', setCode: 'PAL', regulationMark: 'G', font: 'Liberation Sans' },
  { id: 'sv3-98', name: 'Polteageist', number: '098/197', setCode: 'OBF', regulationMark: 'G' },
  { id: 'sv4-65', name: 'Galvantula', number: '065/182', setCode: 'PAR', regulationMark: 'G', font: 'DejaVu Serif' },
  { id: 'sv5-107', name: 'Sableye', number: '107/162', setCode: 'TEF', regulationMark: 'H' },
  { id: 'sv6-212', name: 'Hearthflame Mask Ogerpon ex', number: '212/167', setCode: 'TWM', regulationMark: 'H', font: 'Liberation Sans' },
  { id: 'sv7-3', name: 'Ledian', number: '003/142', setCode: 'SCR', regulationMark: 'H' },
  { id: 'sv8-192', name: 'Exeggcute', number: '192/191', setCode: 'SSP', regulationMark: 'H', font: 'DejaVu Serif' },
  { id: 'sv3pt5-58', name: 'Growlithe', number: '058/165', setCode: 'MEW', regulationMark: 'G' },
  { id: 'sv4pt5-71', name: 'Lechonk', number: '071/091', setCode: 'PAF', regulationMark: 'G', font: 'Liberation Sans' },
  { id: 'swsh11-198', name: 'Magnezone VSTAR', number: '198/196', regulationMark: 'F' },
  { id: 'sm7-75', name: 'Pupitar', number: '075/168', font: 'DejaVu Serif' },
  { id: 'sv9-113', name: 'Shelgon', number: '113/159', setCode: 'JTG', regulationMark: 'I' },
  { id: 'sv10-138', name: "Arven's Maschiff", number: '138/182', setCode: 'DRI', regulationMark: 'I', font: 'Liberation Sans' },
];

export const CATALOG_TEST_CARDS: CatalogTestCard[] = [
  ...vintage.map((card) => ({ ...card, layout: 'vintage' as const })),
  ...modern.map((card) => ({ ...card, layout: 'modern' as const, borderColor: card.setCode ? '#c9ccd1' : '#f2d33c' })),
].map((card, i) => ({ ...card, seed: 301 + i }));
