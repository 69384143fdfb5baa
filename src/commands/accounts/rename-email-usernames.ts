import type { Kysely } from 'kysely';
import { firstFreeUsername, isEmailUsername, usernameBase } from '../../domain/accounts/identity.ts';
import { userDecider } from '../../domain/accounts/user.ts';
import type { Tables } from '../../infra/database/schema.ts';
import type { EventMetadata } from '../../infra/event-store/types.ts';
import { handleCommand, type CommandContext } from '../handle-command.ts';
import { userStream } from './streams.ts';

// Usernames used to be made from the email's local part, and the leaderboard is public. Accounts still named so
// get a name from their first name and last initial, by a UsernameChanged event each, so history and replay stay
// true. Run at start by API processes; two processes at once rename each account once (the decider renames only
// from the name it finds), and a name taken in between is simply picked again.

const ATTEMPTS = 5;

/** `metadata` makes each account's command its own (its own command id), as the system's. */
export async function renameEmailUsernames(store: CommandContext['store'], metadata: () => EventMetadata, db: Kysely<Tables>): Promise<number> {
  const users = await db.selectFrom('users').select(['id', 'username', 'email', 'first_name', 'last_name']).execute();
  let renamed = 0;
  for (const user of users.filter((u) => isEmailUsername(u.username, u.email))) {
    const base = usernameBase(user.first_name, user.last_name);
    for (let attempt = 1; ; attempt++) {
      const taken = await db.selectFrom('users').select('username').where('username', 'like', `${base.replace(/[\\%_]/g, '\\$&')}%`).execute();
      const to = firstFreeUsername(base, new Set(taken.map((row) => row.username)));
      try {
        const context = { store, metadata: metadata() };
        const { events } = await handleCommand(context, {
          ...userStream(user.id),
          decider: userDecider,
          command: { type: 'ChangeUsername', data: { userId: user.id, from: user.username, to, at: context.metadata.timestamp } },
        });
        renamed += events.length;
        break;
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === '23505' && attempt < ATTEMPTS) continue;
        throw error;
      }
    }
  }
  return renamed;
}
