// Auditors' tool: prints what the log holds, one JSON object per line.
//   npm run replay -- stream <streamId>     every event of one stream, upcast as the app reads it
import { loadConfig } from '../src/config.ts';
import type { Database } from '../src/infra/database/database.ts';
import { openDatabase } from '../src/infra/database/index.ts';
import { createEventStore, type EventStore } from '../src/infra/event-store/index.ts';

type ReplayCommand = (store: EventStore, args: readonly string[], out: (line: string) => void) => Promise<void>;

/** One entry per subcommand: `usage` is shown when it is called wrongly. */
const commands: Record<string, { usage: string; arity: number; run: ReplayCommand }> = {
  stream: {
    usage: 'stream <streamId>',
    arity: 1,
    async run(store, [streamId], out) {
      const { events } = await store.readStream(streamId!);
      for (const event of events) out(JSON.stringify(event));
    },
  },
};

const usage = () => `usage: npm run replay -- ${Object.values(commands).map((c) => c.usage).join(' | ')}`;

export async function runReplayCommand(args: readonly string[], store: EventStore, out: (line: string) => void): Promise<number> {
  const [name, ...rest] = args;
  const command = name ? commands[name] : undefined;
  if (!command || rest.length !== command.arity) {
    out(usage());
    return 1;
  }
  await command.run(store, rest, out);
  return 0;
}

if (import.meta.main) {
  let database: Database | undefined;
  try {
    database = await openDatabase(loadConfig());
    process.exitCode = await runReplayCommand(process.argv.slice(2), createEventStore(database), (line) => console.log(line));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  } finally {
    await database?.close();
  }
}
