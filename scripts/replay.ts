// Auditors' tool: prints what the log holds, one JSON object per line.
//   npm run replay -- stream <streamId>     every event of one stream, upcast as the app reads it
//   npm run replay -- card <cardId>         a card's full grade and price history, from its stream
import { cardStream } from '../src/commands/cards/streams.ts';
import { loadConfig } from '../src/config.ts';
import type { Database } from '../src/infra/database/database.ts';
import { openDatabase } from '../src/infra/database/index.ts';
import { createEventStore, type EventStore } from '../src/infra/event-store/index.ts';
import { cardHistory } from '../src/projections/cards/card-history.ts';

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
  card: {
    usage: 'card <cardId>',
    arity: 1,
    async run(store, [cardId], out) {
      const { events } = await store.readStream(cardStream(cardId!).streamId);
      if (events.length === 0) throw new Error(`No card ${cardId} in the log.`);
      for (const entry of cardHistory(events)) out(JSON.stringify(entry));
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
