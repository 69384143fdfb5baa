// Operators' tool for feedback (SPEC.md §3 feedback):
//   npm run feedback -- list [--status <status>]      newest first: id, status, category, date, who, first words
//   npm run feedback -- show <id>                     one piece of feedback, whole, as JSON
//   npm run feedback -- set-status <id> <status>      triage: new, reviewed, in_progress, resolved or closed
//   npm run feedback -- erase <email>                 erases the guests who sent feedback from this email (their name,
//                                                     email and the photos only they sent); an account's is erased
//                                                     with the account (npm run accounts -- erase)
import { setFeedbackStatus } from '../src/commands/feedback/set-feedback-status.ts';
import { FEEDBACK_STATUSES, feedbackStatusSchema, type FeedbackEntry } from '../src/contracts/feedback.ts';
import type { Clock, IdGenerator } from '../src/infra/clock/clock.ts';
import { randomIds, systemClock } from '../src/infra/clock/clock.ts';
import type { Database } from '../src/infra/database/database.ts';
import type { EventStore } from '../src/infra/event-store/index.ts';
import { feedbackSendersByEmail, findFeedback, listFeedback } from '../src/projections/feedback/queries.ts';
import { accountErasureDeps } from '../src/personal-data.ts';
import type { ImageStore } from '../src/infra/image-storage/image-store.ts';
import { AppError } from '../src/contracts/errors.ts';
import { eraseGuest } from '../src/commands/accounts/erase-guest.ts';
import { runOperatorCommandWithImages, usageFailure } from './operator-command.ts';

const USAGE = `usage: npm run feedback -- list [--status <status>] | show <id> | set-status <id> <status> | erase <email>  (statuses: ${FEEDBACK_STATUSES.join(', ')})`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface FeedbackCommandContext {
  database: Database;
  store: EventStore;
  imageStore: Pick<ImageStore, 'delete'>;
  clock: Clock;
  ids: IdGenerator;
  out: (line: string) => void;
}

/** One line per piece of feedback; the text cut to one line of 60 characters. */
function listLine(entry: FeedbackEntry): string {
  const text = entry.feedbackText.replace(/\s+/g, ' ');
  const who = entry.email ?? entry.name ?? (entry.userId ? `user ${entry.userId}` : 'guest');
  return [entry.id, entry.status.padEnd(11), entry.category.padEnd(11), entry.createdAt.slice(0, 16).replace('T', ' '), who, text.length > 60 ? `${text.slice(0, 59)}…` : text].join('  ');
}

/** Runs one operator command; returns the process exit code. */
export async function runFeedbackCommand(args: readonly string[], context: FeedbackCommandContext): Promise<number> {
  const { database, out } = context;
  const [command, ...rest] = args;
  switch (command) {
    case 'list': {
      let status;
      if (rest.length === 2 && rest[0] === '--status') {
        const parsed = feedbackStatusSchema.safeParse(rest[1]);
        if (!parsed.success) return usage(out, `unknown status ${rest[1]}`);
        status = parsed.data;
      } else if (rest.length !== 0) return usage(out);
      const entries = await listFeedback(database.db, status ? { status } : {});
      if (entries.length === 0) out(status ? `no feedback with status ${status}` : 'no feedback yet');
      for (const entry of entries) out(listLine(entry));
      return 0;
    }
    case 'show': {
      if (rest.length !== 1) return usage(out);
      const entry = UUID.test(rest[0]!) ? await findFeedback(database.db, rest[0]!) : undefined;
      if (!entry) {
        out(`no feedback ${rest[0]}`);
        return 1;
      }
      out(JSON.stringify(entry, null, 2));
      return 0;
    }
    case 'set-status': {
      if (rest.length !== 2) return usage(out);
      const [id, rawStatus] = rest as [string, string];
      const status = feedbackStatusSchema.safeParse(rawStatus);
      if (!status.success) return usage(out, `unknown status ${rawStatus}`);
      if (!UUID.test(id) || !(await findFeedback(database.db, id))) {
        out(`no feedback ${id}`);
        return 1;
      }
      const metadata = { actor: { kind: 'system' as const, id: 'operator' }, commandId: context.ids.uuid(), timestamp: context.clock.now().toISOString() };
      const changed = await setFeedbackStatus({ store: context.store, metadata }, { feedbackId: id, status: status.data });
      out(changed ? `${id}: ${status.data}` : `${id} is already ${status.data}`);
      return 0;
    }
    case 'erase': {
      if (rest.length !== 1 || !rest[0]!.includes('@')) return usage(out, rest.length === 1 ? `${rest[0]} is not an email` : undefined);
      const senders = await feedbackSendersByEmail(database.db, rest[0]!);
      if (senders.length === 0) {
        out(`no feedback from ${rest[0]}`);
        return 1;
      }
      const deps = accountErasureDeps(database, context.imageStore);
      let refused = 0;
      for (const { owner, feedback } of senders) {
        const [kind, id] = owner.split(':') as ['user' | 'guest', string];
        if (kind === 'user') {
          out(`account ${id} (${feedback} feedback): erase it with npm run accounts -- erase ${id}`);
          refused++;
          continue;
        }
        const metadata = { actor: { kind: 'system' as const, id: 'operator' }, commandId: context.ids.uuid(), timestamp: context.clock.now().toISOString() };
        try {
          const erased = await eraseGuest({ store: context.store, metadata }, deps, { guestId: id, at: metadata.timestamp });
          out(`guest ${id} (${feedback} feedback): erased (${erased.keysDeleted} key, ${erased.photosDeleted} photos deleted)`);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          out(`guest ${id} (${feedback} feedback): ${error.message}`);
          refused++;
        }
      }
      return refused === senders.length ? 1 : 0;
    }
    default:
      return usage(out);
  }
}

function usage(out: (line: string) => void, problem?: string): number {
  return usageFailure(out, USAGE, problem);
}

if (import.meta.main) {
  await runOperatorCommandWithImages(({ database, store, imageStore }) =>
    runFeedbackCommand(process.argv.slice(2), { database, store, imageStore, clock: systemClock, ids: randomIds, out: (line) => console.log(line) }),
  );
}
