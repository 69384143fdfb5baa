import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { heif_image_handle, MainModule } from 'libheif-js/libheif-wasm/libheif.js';
import { ImageMeasurementError } from './errors.ts';

// HEIC (an iPhone's default) is HEVC in an ISO-BMFF box: the libvips that sharp ships reads the box but has no HEVC
// decoder, so libheif decodes it here, built to WebAssembly (libheif-js: libheif and libde265, LGPL-3.0, used
// unmodified from npm; nothing is fetched at run time). Each thread that decodes has its own instance, whose memory
// grows to the largest photo it has decoded (about 100 MB for 12 MP) and stays so.

const require = createRequire(import.meta.url);

/** A photo's pixels as libheif gives them: interleaved 8-bit RGBA, upright (its rotation and mirroring applied). */
export interface RgbaPixels {
  data: Uint8Array;
  width: number;
  height: number;
  channels: 4;
}

let instance: MainModule | null = null;

/**
 * The WebAssembly build, loaded once per thread from the package's own files. Given the binary, this build compiles
 * and starts synchronously (about 40 ms): the module returned is ready.
 */
function libheif(): MainModule {
  if (instance) return instance;
  const wasmBinary = readFileSync(require.resolve('libheif-js/libheif-wasm/libheif.wasm'));
  const factory = require('libheif-js/libheif-wasm/libheif.js') as (options: { wasmBinary: Uint8Array }) => MainModule;
  instance = factory({ wasmBinary });
  return instance;
}

const damaged = () => new ImageMeasurementError('truncated_image', 'The photo is damaged or incomplete.');

/**
 * Decodes the primary image of a HEIC/HEIF file. Its size is read from the header and checked against `maxPixels`
 * before any pixel is decoded (image bombs); a file libheif cannot read is refused as damaged, like any other.
 */
export async function decodeHeic(bytes: Uint8Array, maxPixels: number): Promise<RgbaPixels> {
  const heif = libheif();
  const context = heif.heif_context_alloc();
  let handle: heif_image_handle | null = null;
  try {
    const read = heif.heif_context_read_from_memory(context, bytes as unknown as string);
    if (read.code !== heif.heif_error_code.heif_error_Ok) throw damaged();
    const primary: heif_image_handle | { code: unknown } | null = heif.heif_js_context_get_primary_image_handle(context);
    if (!primary || 'code' in primary) throw damaged();
    handle = primary;
    const width = heif.heif_image_handle_get_width(handle);
    const height = heif.heif_image_handle_get_height(handle);
    if (width <= 0 || height <= 0) throw damaged();
    if (width * height > maxPixels) {
      throw new ImageMeasurementError('image_too_large', `The photo is too large (${width} × ${height} pixels).`, { width, height, maxPixels });
    }
    const decoded = await heif.heif_js_decode_image2(handle, heif.heif_colorspace.heif_colorspace_RGB, heif.heif_chroma.heif_chroma_interleaved_RGBA);
    if (!decoded || decoded.code !== undefined) throw damaged();
    try {
      return copyPixels(decoded.channels, heif.heif_channel.heif_channel_interleaved, width, height);
    } finally {
      heif.heif_image_release(decoded.image);
    }
  } catch (error) {
    if (error instanceof ImageMeasurementError) throw error;
    // A trap inside the WebAssembly (out of memory, a bug reached by a hostile file) leaves that instance unusable:
    // the next photo gets a fresh one.
    instance = null;
    throw damaged();
  } finally {
    if (handle) heif.heif_image_handle_release(handle);
    heif.heif_context_free(context);
  }
}

interface Plane {
  id: unknown;
  data: Uint8Array;
  width: number;
  height: number;
  stride: number;
}

/** The interleaved plane copied out of the WebAssembly memory (which the next decode reuses), without row padding. */
function copyPixels(planes: Plane[], interleaved: unknown, width: number, height: number): RgbaPixels {
  const plane = planes.find((p) => p.id === interleaved);
  if (!plane || plane.width !== width || plane.height !== height) throw damaged();
  const row = width * 4;
  const data = new Uint8Array(row * height);
  if (plane.stride === row) data.set(plane.data.subarray(0, data.length));
  else for (let y = 0; y < height; y++) data.set(plane.data.subarray(y * plane.stride, y * plane.stride + row), y * row);
  return { data, width, height, channels: 4 };
}
