// What the operator commands (npm run accounts | feedback | orders) share: the database and event store opened from
// the environment's settings, the command's exit code, a plain message instead of a stack trace, and the database
// closed whatever happened. Each command's own logic takes these as a context, so its tests run it on their own.
import { loadConfig, type Config } from '../src/config.ts';
import type { Database } from '../src/infra/database/database.ts';
import { openDatabase } from '../src/infra/database/index.ts';
import { createEventStore, type EventStore } from '../src/infra/event-store/index.ts';
import type { ImageStore } from '../src/infra/image-storage/image-store.ts';
import { openImageStore } from '../src/infra/image-storage/index.ts';
import { inlineProjections } from '../src/projections/index.ts';

/** Opens what a command needs, runs it, and sets the process's exit code from its answer. */
export async function runOperatorCommand(run: (opened: { config: Config; database: Database; store: EventStore }) => Promise<number>): Promise<void> {
  let database: Database | undefined;
  try {
    const config = loadConfig();
    database = await openDatabase(config);
    process.exitCode = await run({ config, database, store: createEventStore(database, { inline: inlineProjections }) });
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  } finally {
    await database?.close();
  }
}

/** The same, with the image store opened from the settings too (erasing deletes photos), and closed after. */
export async function runOperatorCommandWithImages(run: (opened: { config: Config; database: Database; store: EventStore; imageStore: ImageStore }) => Promise<number>): Promise<void> {
  await runOperatorCommand(async (opened) => {
    const imageStore = openImageStore(opened.config);
    try {
      return await run({ ...opened, imageStore });
    } finally {
      imageStore.close?.();
    }
  });
}

/** A command's refusal of its arguments: what was wrong, if known, then its usage; exit code 1. */
export function usageFailure(out: (line: string) => void, usage: string, problem?: string): number {
  if (problem) out(problem);
  out(usage);
  return 1;
}
