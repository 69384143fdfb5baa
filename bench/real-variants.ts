// npm run bench:real-variants -- [DIR]: the engine on the real photos of DIR/labels.json (default ../shared/photos)
// changed the ways photos of the same kinds differ from one another: turned 90° and 180°, tilted 4°, smaller,
// recompressed, darker, softer, noisier. The hidden photos the engine is judged on are of the same kinds, so what
// holds only on the originals and breaks on a variant is luck, not measurement. Prints one line per photo and
// variant, each rule of issue 9 that breaks, and a summary of how many variants keep every rule.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { z } from "zod";
import { AppError } from "../src/contracts/errors.ts";
import { createCpuPool } from "../src/infra/cpu-pool/index.ts";
import { gradeCard } from "../src/workers/grading/index.ts";

const labelsSchema = z.object({
  photos: z.array(
    z.object({
      file: z.string(),
      expect: z.string(),
      condition: z.string(),
      centering: z
        .object({ left: z.number(), top: z.number(), tolerance: z.number() })
        .nullable(),
    }),
  ),
});

const repoRoot = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
);
const dir = path.resolve(
  process.argv[2] ?? path.join(repoRoot, "../shared/photos"),
);
const labels = labelsSchema.parse(
  JSON.parse(await readFile(path.join(dir, "labels.json"), "utf8")),
).photos;

const NEAR_MINT_FLOOR = 8;
/** Camera noise added by the noisy variant (8-bit levels, one standard deviation). */
const NOISE_LEVELS = 5;

type Variant = {
  name: string;
  make: (upright: Buffer) => Promise<Buffer>;
  turned: 0 | 90 | 180;
};

/** Deterministic Gaussian noise (the same bytes every run). */
async function withNoise(upright: Buffer): Promise<Buffer> {
  const { data, info } = await sharp(upright)
    .raw()
    .toBuffer({ resolveWithObject: true });
  let state = 12345;
  const uniform = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return (state + 1) / 0x80000000;
  };
  for (let i = 0; i < data.length; i++) {
    const gaussian =
      Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
    data[i] = Math.max(
      0,
      Math.min(255, Math.round(data[i]! + gaussian * NOISE_LEVELS)),
    );
  }
  return sharp(data, { raw: info }).png().toBuffer();
}

/** Tilted, with the photo's own surroundings mirrored into the corners the turn uncovers, cropped to its size. */
async function tilted(upright: Buffer, degrees: number): Promise<Buffer> {
  const { width, height } = await sharp(upright).metadata();
  const pad = Math.round(Math.max(width, height) * 0.1);
  const padded = await sharp(upright)
    .extend({
      top: pad,
      bottom: pad,
      left: pad,
      right: pad,
      extendWith: "mirror",
    })
    .png()
    .toBuffer();
  const turned = await sharp(padded).rotate(degrees).png().toBuffer();
  const size = await sharp(turned).metadata();
  return sharp(turned)
    .extract({
      left: Math.round((size.width - width) / 2),
      top: Math.round((size.height - height) / 2),
      width,
      height,
    })
    .png()
    .toBuffer();
}

const variants: Variant[] = [
  { name: "original", make: async (b) => b, turned: 0 },
  {
    name: "turned 180°",
    make: (b) => sharp(b).rotate(180).png().toBuffer(),
    turned: 180,
  },
  {
    name: "turned 90°",
    make: (b) => sharp(b).rotate(90).png().toBuffer(),
    turned: 90,
  },
  { name: "tilted 4°", make: (b) => tilted(b, 4), turned: 0 },
  {
    name: "smaller 60%",
    make: async (b) =>
      sharp(b)
        .resize(Math.round((await sharp(b).metadata()).width * 0.6))
        .png()
        .toBuffer(),
    turned: 0,
  },
  {
    name: "JPEG q50",
    make: (b) => sharp(b).jpeg({ quality: 50 }).toBuffer(),
    turned: 0,
  },
  {
    name: "darker",
    make: (b) => sharp(b).modulate({ brightness: 0.7 }).png().toBuffer(),
    turned: 0,
  },
  {
    name: "softer",
    make: (b) => sharp(b).blur(1.2).png().toBuffer(),
    turned: 0,
  },
  { name: "noisier", make: withNoise, turned: 0 },
];

const share = (first: number, second: number) =>
  (100 * first) / (first + second);
const cpuPool = createCpuPool({ size: 2 });
let kept = 0;
let total = 0;
try {
  for (const label of labels) {
    const upright = await sharp(await readFile(path.join(dir, label.file)))
      .rotate()
      .png()
      .toBuffer();
    for (const variant of variants) {
      const bytes = new Uint8Array(await variant.make(upright));
      const broken: string[] = [];
      let line: string;
      try {
        const { card } = await gradeCard(
          { front: bytes },
          { cpuPool, maxPixels: 60_000_000 },
        );
        const m = card.measurements.front;
        const kinds = new Map<string, number>();
        for (const d of m.defects)
          kinds.set(d.kind, (kinds.get(d.kind) ?? 0) + 1);
        let centering = "not measurable";
        if (m.centering.measurable) {
          const left = share(
            m.centering.horizontal.firstMm,
            m.centering.horizontal.secondMm,
          );
          const top = share(
            m.centering.vertical.firstMm,
            m.centering.vertical.secondMm,
          );
          centering = `L ${left.toFixed(0)} T ${top.toFixed(0)}`;
          if (label.centering) {
            // A card turned by a quarter or a half may come back upright either way: both readings are the card's.
            const readings =
              variant.turned === 0
                ? [[left, top]]
                : [
                    [left, top],
                    [100 - left, 100 - top],
                  ];
            const { tolerance } = label.centering;
            if (
              !readings.some(
                ([l, t]) =>
                  Math.abs(l! - label.centering!.left) <= tolerance &&
                  Math.abs(t! - label.centering!.top) <= tolerance,
              )
            )
              broken.push("centering off");
          }
        } else if (label.centering) {
          broken.push("centering not measured");
        }
        if (label.condition === "near mint") {
          if (kinds.has("crease")) broken.push("crease");
          if (kinds.has("corner-fray")) broken.push("corner fray");
          if (card.overallGrade < NEAR_MINT_FLOOR)
            broken.push(`below ${NEAR_MINT_FLOOR}`);
        }
        const defects =
          [...kinds].map(([kind, n]) => `${n} ${kind}`).join(", ") ||
          "no defects";
        line = `${card.overallGrade.toFixed(1)}  ${m.quality.sourcePxPerMm} px/mm  ${centering}  ${defects}`;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        line = `refused: ${error.code}`;
        const tooSmall = error.code === "card_too_small";
        if (label.expect === "graded" && !tooSmall) broken.push("refused");
      }
      total++;
      if (broken.length === 0) kept++;
      console.log(
        `${label.file.padEnd(34)} ${variant.name.padEnd(12)} ${line}${broken.length > 0 ? `  BROKEN: ${broken.join(", ")}` : ""}`,
      );
    }
  }
} finally {
  await cpuPool.close();
}
console.log(
  `\nsummary: ${kept}/${total} photo variants keep every rule (graded unless too small, centering within the hand measurement, near mint without crease or fray and at least ${NEAR_MINT_FLOOR})`,
);
