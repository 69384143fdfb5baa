import type { CardFormatId, CornerName, EdgeName } from '../../contracts/measurement.ts';

/** A defect of known size drawn on a synthetic card; positions in mm on the upright card (0..63 × 0..88 for the common format). */
export type SyntheticDefect =
  | { kind: 'whitened-corner'; corner: CornerName; lengthMm: number }
  | { kind: 'worn-corner'; corner: CornerName; radiusMm: number }
  /** `atMm`: the middle of the defect, along the edge from its left (top, bottom) or top (left, right) end. */
  | { kind: 'whitened-edge'; edge: EdgeName; atMm: number; lengthMm: number }
  /** A notch with a flat bottom, `depthMm` deep and `lengthMm` wide at the edge (default max(1, 2 × depth)). */
  | { kind: 'nick'; edge: EdgeName; atMm: number; depthMm: number; lengthMm?: number }
  /** Centred on (x, y); `angleDeg` from the x axis with y down, as the engine reports it. */
  | { kind: 'scratch'; x: number; y: number; lengthMm: number; angleDeg: number; widthMm?: number }
  | { kind: 'print-line'; orientation: 'horizontal' | 'vertical'; atMm: number; widthMm?: number }
  | { kind: 'spot'; x: number; y: number; diameterMm: number }
  /** A fold centred on (x, y), `lengthMm` long at `angleDeg`: its lit side a light line, its shaded side a dark one beside it. */
  | { kind: 'crease'; x: number; y: number; lengthMm: number; angleDeg: number }
  /** A marker's scribble, `sizeMm` across, centred at (x, y): a dark grey blob with a ragged outline and light gaps. */
  | { kind: 'ink-mark'; x: number; y: number; sizeMm: number };

export interface SyntheticLettering {
  name: string;
  /** On its own light band at the foot of the art. Default none. */
  number?: string;
}

/**
 * A grader's slab round the card: a clear holder a little larger than the card, and above the card inside it a
 * label. Two layouts:
 * - 'named' (default): white paper printed with the card's year and name, the grade, the certificate number and the
 *   grader's name large at its foot (BGS, CGC, SGC, TAG, AGS).
 * - 'psa': PSA's. A red frame round white paper; at the left the year and set, the card's name and a third line, and
 *   a barcode; at the right the card's number ("#003"), the descriptor ("MINT"), the grade on the line below it ("9")
 *   and the cert; PSA's logo a graphic between them, never text.
 */
export interface SyntheticSlab {
  layout?: 'named' | 'psa';
  /**
   * How the holder looks: 'clear' (default), plastic over the table; 'scanned', as a grader's own scans show it,
   * the holder's body grey and opaque, its walls light ridges with two faces, and the card floating in a dark well
   * a couple of millimetres larger than itself (the scanner's black lid seen through the plastic). 'listing', as a
   * seller's listing photo shows it: cropped below the label (none drawn), light plastic, the card in a dark well.
   */
  look?: 'clear' | 'scanned' | 'listing';
  /**
   * A listing photo's well: 'dark' (default), the holder's dark insert behind the card; 'clear', clear plastic over
   * a white table, the well as light as the plastic round it, as many listing photos of vintage cards show it.
   */
  well?: 'dark' | 'clear';
  /** Named layout: printed large at the label's foot, as the grader's logo: "BECKETT", "CGC". PSA layout: unused. */
  company: string;
  /** Named layout: the grade as the label prints it, "9.5 GEM MINT". PSA layout: the descriptor alone, "MINT". */
  gradeText: string;
  /** PSA layout: the grade, printed on the line under the descriptor: "9". */
  grade?: string;
  /** The certificate number, printed under the grade. */
  cert: string;
  /** The card's name line and its year line on the label's left. */
  name?: string;
  year?: string;
  /** PSA layout: the card's number at the right of the year line ("#003"), and the third line at the left. */
  number?: string;
  variety?: string;
}

export interface SyntheticBorders {
  leftMm: number;
  rightMm: number;
  topMm: number;
  bottomMm: number;
}

export interface SyntheticCardSpec {
  /**
   * The card's format (card-formats.ts): its size in mm, and so the photo's and the slab's. Default 'standard', 63 × 88.
   * A vintage format is cut square: draw it with `cornerRadiusMm: 0` (worn corners: a 'worn-corner' defect each).
   */
  format?: CardFormatId;
  /** Border widths; null draws a borderless (full-art) card. Default 3 mm all round. */
  borders?: SyntheticBorders | null;
  /** Border colour as #rrggbb; default: chosen by the seed, contrasting with the art. */
  borderColor?: string;
  /**
   * The border's ink (foil-border.ts): 'silver', brushed silver foil with a sheen across the card (Scarlet & Violet's
   * border, a Sun & Moon full-art's frame); 'rainbow-foil', a pale rainbow foil (Japanese holos). Default flat `borderColor`.
   */
  borderFinish?: 'silver' | 'rainbow-foil';
  /** A dark printed frame this wide just inside the border, round the art (Sun & Moon full-arts). Default none. */
  innerFrame?: { widthMm: number; color?: string };
  /** The layout's bars across the face (layout-print.ts): a foil stripe over a dark rule, a rule, an outlined box. Print. */
  layoutBars?: boolean;
  /** Locks of hair in the art (layout-print.ts), each centred on (x, y) mm, flowing at `angleDeg`: fine light strands, each as thin and light as a scratch. Print. */
  hair?: { x: number; y: number; angleDeg: number }[];
  /** The print turned on the card by this many degrees (a diamond cut): the border's inner edge runs askew. */
  printTiltDeg?: number;
  /**
   * A miscut's other side: the next card on the sheet, its print showing as a strip this wide along this edge of the
   * card, beyond the card's own border (the sheet was cut off register towards it). Default none.
   */
  nextCardPrint?: { edge: EdgeName; widthMm: number; color: string };
  /**
   * A pale rim: the border's colour eases in from the cut edge, paler there (some 40% of the way to the card stock's
   * white) and full from this many mm in, as a played card's worn rim or a sleeve's edge over it shows in a 1080p frame. Default none.
   */
  paleRimMm?: number;
  /**
   * A ragged cut: bites up to this deep taken out of the card's edge every 0.2 mm along it, all round, so the
   * outline wavers as a soft, fibrous cut does at a phone photo's resolution. Default none.
   */
  edgeRoughnessMm?: number;
  /** 3 for trading-card-game cards, 0 for square sports cards. Default 3. */
  cornerRadiusMm?: number;
  defects?: SyntheticDefect[];
  /**
   * A holo face: foil sparkle and printed stars over the art (holo.ts), which are print, not damage. 'lines': also a
   * foil of ridged lines across the art (a cosmos or reverse holo's, a refractor's), each ridge drawn as a crease is.
   * Default none.
   */
  holo?: boolean | 'lines';
  /**
   * A full-art face's print at the cut (full-art.ts): pale art running to the edge, some 50-60 levels darker than
   * white paper, with dark strokes starting 0.2-0.45 mm inside the cut every few millimetres. Print, not nicks. Best
   * with `borders: null`. 'dark-at-cut': stretches of dark art (deep purple, wine, navy) running into the cut
   * instead, as dark as a dark playmat. Default none.
   */
  fullArtEdge?: boolean | 'dark-at-cut';
  /**
   * Edges of printed shapes in the art (a strand of hair, the rim of a highlight, a box's side), as a camera's
   * sharpening shows them: a dark band on one side of the line and a light one on the other, each edged with a halo
   * line (light on the light side, dark on the dark side). Centred on (x, y) mm, `lengthMm` long at `angleDeg`. Print,
   * not a crease. Default none.
   */
  artStrokes?: { x: number; y: number; lengthMm: number; angleDeg: number }[];
  /** Print OCR can read: the name on a light band across the top of the art, inside a thin frame. Default none. */
  lettering?: SyntheticLettering;
  /** Resolution of the card in the photo, pixels per mm. Default 20. */
  pxPerMm?: number;
  photo?: {
    /** Card height as a share of the photo height. Default 0.75. */
    cardScale?: number;
    /** Photo width / height. Default 0.8 (portrait). */
    aspect?: number;
    /** Background colour as #rrggbb; default: chosen by the seed, contrasting with the border. */
    background?: string;
    /** Degrees, clockwise. */
    rotationDeg?: number;
    /** 0..0.15: how much narrower the card's top edge looks than its bottom edge (camera tilted). */
    keystone?: number;
    /** Gaussian blur of the whole photo (camera shake, missed focus), sigma in photo pixels. Default none. */
    blur?: number;
    /** How much light the scene had: every level is scaled by this before the camera's noise (0.6: a dim room). Default 1. */
    light?: number;
    /** Standard deviation of per-pixel noise in 8-bit levels. Default 0. */
    noise?: number;
    /** Default 'jpeg' at quality 85. */
    format?: 'jpeg' | 'png';
    jpegQuality?: number;
    /**
     * What the card lies on: a table (default, `background` with a lighting gradient), lined notebook paper (rulings
     * every 7 mm and a margin line, running to the photo's edges), a dark textured playmat, or a light surface a
     * silver border nearly matches (issue 31): white printer paper (faint fibres), a white desk (smooth, a broad
     * lamp's falloff), light wood (pale grain along the photo).
     */
    surface?: 'table' | 'lined-paper' | 'playmat' | 'white-paper' | 'white-desk' | 'light-wood';
    /**
     * The card's thickness seen at its cut on a light surface: a thin shadow round the outline, the surface darker by
     * `darkening` (a share) at the cut and fading to nothing `widthMm` out. Default none.
     */
    cutShadow?: { widthMm: number; darkening: number };
    /** The card in a clear penny sleeve: a thin light outline this many mm outside the card (about 1.5). */
    sleeveGapMm?: number;
    /** The sleeve sits askew on the card by this many degrees, so its margin is wider at one end. Default 0. */
    sleeveTiltDeg?: number;
    /** How much darker the table looks through the sleeve's empty margin (two layers of plastic), 0–1. Default 0. */
    sleeveTint?: number;
    /** A lamp's reflection on the sleeve: a soft light band across it, this share of the way to white at its middle (0–1). */
    sleeveGlare?: number;
    /** Where the card's centre sits, as shares of the photo size (0.5, 0.5 = middle). */
    centerX?: number;
    centerY?: number;
    /** A soft shadow cast by the card, offset down and right, this many mm wide. Default none. */
    shadowMm?: number;
    /** The card lifted off the table under one lamp: its shadow offset this far, with an outline blurred over penumbraMm. */
    castShadow?: { offsetMm: number; penumbraMm: number };
    /** The card sealed in a grader's slab, its label above the card. Default none (a raw card). */
    slab?: SyntheticSlab;
  };
  /** Refusal fixtures: a photo without a card, a blank photo, or a card cut off by the photo's edge. */
  variant?: 'card' | 'no-card' | 'blank' | 'cut-off';
}
