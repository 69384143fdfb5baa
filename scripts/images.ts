// Operators' tool for the image store (README.md, Service mode):
//   npm run images -- copy --to s3://BUCKET[/PREFIX] [--from DIR] [--concurrency N]
//     copies a files-mode image folder (DATA_DIR/images unless --from) into a bucket, reached with the same
//     AWS_* variables and S3_FORCE_PATH_STYLE as the server. Idempotent and resumable: images already in the bucket
//     are not written again, so a copy that stopped is finished by running it again.
import { loadConfig, parseImageStoreSetting } from '../src/config.ts';
import { copyImages, createS3ImageStore, s3Options } from '../src/infra/image-storage/index.ts';
import { loadDotEnv } from '../src/infra/process-lifecycle.ts';

const USAGE = 'usage: npm run images -- copy --to s3://BUCKET[/PREFIX] [--from DIR] [--concurrency N]';

/** Runs one operator command; returns the process exit code (0 done, 1 refused or stopped, 2 done with files left behind). */
export async function runImagesCommand(args: readonly string[], env: NodeJS.ProcessEnv, out: (line: string) => void): Promise<number> {
  const [command, ...rest] = args;
  const option = (name: string) => {
    const at = rest.indexOf(name);
    return at >= 0 ? rest[at + 1] : undefined;
  };
  const to = option('--to');
  const target = to ? parseImageStoreSetting(to) : null;
  const concurrency = Number(option('--concurrency') ?? 8);
  if (command !== 'copy' || !target || target.kind !== 's3' || !Number.isInteger(concurrency) || concurrency < 1) {
    out(USAGE);
    return 1;
  }
  const config = loadConfig(env);
  const fromDir = option('--from') ?? config.imagesDir;
  const store = createS3ImageStore(s3Options(config, target));
  const started = performance.now();
  try {
    await store.ping();
    out(`copying the images in ${fromDir} to ${store.location}…`);
    const report = await copyImages({
      fromDir,
      to: store,
      concurrency,
      onProgress: (r) => out(`  ${r.copied + r.present} images: ${r.copied} copied, ${r.present} already there`),
    });
    const seconds = (performance.now() - started) / 1000;
    out(`done in ${seconds.toFixed(1)} s: ${report.copied} copied, ${report.present} already there, ${report.skipped.length} left behind`);
    for (const { file, reason } of report.skipped) out(`  left behind ${file}: ${reason}`);
    return report.skipped.length > 0 ? 2 : 0;
  } catch (error) {
    const report = (error as { report?: { copied: number; present: number } }).report;
    const cause = (error as { cause?: unknown }).cause;
    const reason = cause instanceof Error ? cause.message || cause.name : error instanceof Error ? error.message : String(error);
    out(`stopped: ${reason}`);
    if (report) out(`${report.copied} copied and ${report.present} already there before it stopped; run the same command again to go on.`);
    return 1;
  } finally {
    store.close?.();
  }
}

if (import.meta.main) {
  loadDotEnv();
  process.exitCode = await runImagesCommand(process.argv.slice(2), process.env, (line) => console.log(line));
}
