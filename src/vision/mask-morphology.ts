// Binary masks (1 = set) on a width × height grid: erosion and dilation by a square, and the opening made of them.
// Separable running counts: each pass costs the same whatever the square's size.

/** The mask opened by a (2·radius + 1)² square: whatever is thinner than the square disappears, blobs keep their shape. */
export function openMask(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  if (radius <= 0) return mask.slice();
  return dilate(erode(mask, width, height, radius), width, height, radius);
}

function erode(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  // A pixel stays set when its whole square is set; outside the photo counts as set, so the border erodes nothing.
  return squarePass(mask, width, height, radius, 2 * radius + 1, 1);
}

function dilate(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  return squarePass(mask, width, height, radius, 1, 0);
}

/**
 * Counts set pixels in each (2r + 1)-long run, rows then columns; a pixel is set when its run has at least `needed`.
 * `outside` is what pixels beyond the grid count as.
 */
function squarePass(mask: Uint8Array, width: number, height: number, radius: number, needed: number, outside: 0 | 1): Uint8Array {
  const rows = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++) runPass(mask, y * width, 1, width, radius, needed, outside, rows);
  const out = new Uint8Array(mask.length);
  for (let x = 0; x < width; x++) runPass(rows, x, width, height, radius, needed, outside, out);
  return out;
}

function runPass(source: Uint8Array, start: number, stride: number, length: number, radius: number, needed: number, outside: 0 | 1, target: Uint8Array): void {
  let count = outside * radius;
  for (let k = 0; k <= radius && k < length; k++) count += source[start + k * stride]!;
  if (radius >= length) count += outside * (radius + 1 - length);
  for (let k = 0; k < length; k++) {
    target[start + k * stride] = count >= needed ? 1 : 0;
    const leaving = k - radius;
    const entering = k + radius + 1;
    count -= leaving >= 0 ? source[start + leaving * stride]! : outside;
    count += entering < length ? source[start + entering * stride]! : outside;
  }
}
