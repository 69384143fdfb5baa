/**
 * Grows the connected region of `start` over the pixels `accepts(pixel, state)` admits (4- or 8-connected), marking
 * them in `visited`. The region's pixel indices are left in members[0 .. size); the size is returned.
 * `accepts` should be a module-level function with its data in `state`: a closure made on every call is compiled
 * again by V8 on every call.
 */
export function growRegion<State>(
  start: number,
  width: number,
  height: number,
  connectivity: 4 | 8,
  accepts: (pixel: number, state: State) => boolean,
  state: State,
  visited: Uint8Array,
  members: Int32Array,
): number {
  let size = 0;
  let done = 0;
  members[size++] = start;
  visited[start] = 1;
  while (done < size) {
    const p = members[done++]!;
    const x = p % width;
    const y = (p - x) / width;
    for (let dy = -1; dy <= 1; dy++) {
      const ny = y + dy;
      if (ny < 0 || ny >= height) continue;
      for (let dx = -1; dx <= 1; dx++) {
        const nx = x + dx;
        if (nx < 0 || nx >= width || (dx === 0 && dy === 0) || (connectivity === 4 && dx !== 0 && dy !== 0)) continue;
        const q = ny * width + nx;
        if (visited[q] === 0 && accepts(q, state)) {
          visited[q] = 1;
          members[size++] = q;
        }
      }
    }
  }
  return size;
}
