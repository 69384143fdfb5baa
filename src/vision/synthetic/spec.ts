import type { CornerName, EdgeName } from '../../contracts/measurement.ts';

/** A defect of known size drawn on a synthetic card; positions in mm on the upright card (0..63 × 0..88). */
export type SyntheticDefect =
  | { kind: 'whitened-corner'; corner: CornerName; lengthMm: number }
  | { kind: 'worn-corner'; corner: CornerName; radiusMm: number }
  | { kind: 'whitened-edge'; edge: EdgeName; atMm: number; lengthMm: number }
  | { kind: 'nick'; edge: EdgeName; atMm: number; depthMm: number; lengthMm?: number }
  | { kind: 'scratch'; x: number; y: number; lengthMm: number; angleDeg: number; widthMm?: number }
  | { kind: 'print-line'; orientation: 'horizontal' | 'vertical'; atMm: number; widthMm?: number }
  | { kind: 'spot'; x: number; y: number; diameterMm: number };

export interface SyntheticBorders {
  leftMm: number;
  rightMm: number;
  topMm: number;
  bottomMm: number;
}

export interface SyntheticCardSpec {
  /** Border widths; null draws a borderless (full-art) card. Default 3 mm all round. */
  borders?: SyntheticBorders | null;
  /** Border colour as #rrggbb; default: chosen by the seed, contrasting with the art. */
  borderColor?: string;
  /** 3 for trading-card-game cards, 0 for square sports cards. Default 3. */
  cornerRadiusMm?: number;
  defects?: SyntheticDefect[];
  /** Pixels per mm of the card as drawn before the camera transform. Default 20. */
  pxPerMm?: number;
  photo?: {
    /** Photo size in pixels; default fits the card at ~75% of the height. */
    width?: number;
    height?: number;
    background?: string;
    /** Degrees, clockwise. */
    rotationDeg?: number;
    /** 0..0.2: how much narrower the far (top) edge looks than the near one. */
    keystone?: number;
    /** Standard deviation of per-pixel noise in 8-bit levels. Default 0. */
    noise?: number;
    /** Default 'jpeg' at quality 85. */
    format?: 'jpeg' | 'png';
    jpegQuality?: number;
    /** Card height as a share of the photo height. Default 0.75. */
    cardScale?: number;
    /** Where the card's centre sits, as shares of the photo (0.5, 0.5 = middle). */
    centerX?: number;
    centerY?: number;
  };
  /** Refusal fixtures: a photo without a card, a blank photo, or a card cut off by the photo's edge. */
  variant?: 'card' | 'no-card' | 'blank' | 'cut-off';
}
