/**
 * Separable median (rows, then columns) of an 8-bit image with a sliding histogram: cost independent of the
 * window. Like a true 2-D median it keeps straight edges of any direction and removes lines and blobs narrower
 * than half the window, which is what the surface check needs from its local background.
 */
export function separableMedian(values: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  const rows = new Uint8Array(values.length);
  for (let y = 0; y < height; y++) slidingMedian(values, y * width, 1, width, radius, rows);
  const result = new Uint8Array(values.length);
  for (let x = 0; x < width; x++) slidingMedian(rows, x, width, height, radius, result);
  return result;
}

/** Median over [i - radius, i + radius] (clipped to the line) for each of `length` values spaced `stride` apart. */
function slidingMedian(source: Uint8Array, start: number, stride: number, length: number, radius: number, out: Uint8Array): void {
  const histogram = new Int32Array(256);
  let count = 0;
  for (let i = 0; i < Math.min(length, radius); i++) {
    histogram[source[start + i * stride]!]!++;
    count++;
  }
  let median = 0;
  let below = 0; // how many values in the window are < median
  for (let i = 0; i < length; i++) {
    const entering = i + radius;
    if (entering < length) {
      const v = source[start + entering * stride]!;
      histogram[v]!++;
      count++;
      if (v < median) below++;
    }
    const leaving = i - radius - 1;
    if (leaving >= 0) {
      const v = source[start + leaving * stride]!;
      histogram[v]!--;
      count--;
      if (v < median) below--;
    }
    const rank = (count - 1) >> 1;
    while (below > rank) {
      median--;
      below -= histogram[median]!;
    }
    while (below + histogram[median]! <= rank) {
      below += histogram[median]!;
      median++;
    }
    out[start + i * stride] = median;
  }
}
