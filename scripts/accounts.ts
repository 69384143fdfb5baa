// Operators' tool for people's data (issue 34, GDPR Art. 17):
//   npm run accounts -- erase <email|userId>        erases the account and its person's data, ends its sessions
//   npm run accounts -- encrypt-log [--dry-run]     seals the personal fields of events written before sealing (once)
//   npm run accounts -- drop-backup                 drops the plaintext copy encrypt-log kept of the rows it changed
import { eraseAccount } from '../src/commands/accounts/erase-account.ts';
import { accountKeyOf, createDeviceCookies } from '../src/infra/auth/device-cookies.ts';
import { createSessionRepository } from '../src/infra/auth/session-repository.ts';
import type { Clock, IdGenerator } from '../src/infra/clock/clock.ts';
import { randomIds, systemClock } from '../src/infra/clock/clock.ts';
import type { Database } from '../src/infra/database/database.ts';
import type { EventStore } from '../src/infra/event-store/index.ts';
import type { ImageStore } from '../src/infra/image-storage/image-store.ts';
import { BACKUP_TABLE, dropEncryptLogBackup, encryptLog, EncryptLogRefused } from '../src/infra/personal-data/encrypt-log.ts';
import { accountErasureDeps } from '../src/personal-data.ts';
import { findUserByEmail, findUserById } from '../src/projections/users/queries.ts';
import { runOperatorCommandWithImages, usageFailure } from './operator-command.ts';

const USAGE = 'usage: npm run accounts -- erase <email|userId> | encrypt-log [--dry-run] | drop-backup';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface AccountsCommandContext {
  database: Database;
  store: EventStore;
  imageStore: Pick<ImageStore, 'delete'>;
  clock: Clock;
  ids: IdGenerator;
  out: (line: string) => void;
}

/** Runs one operator command; returns the process exit code. */
export async function runAccountsCommand(args: readonly string[], context: AccountsCommandContext): Promise<number> {
  const { database, out } = context;
  const [command, ...rest] = args;
  switch (command) {
    case 'erase': {
      if (rest.length !== 1) return usage(out);
      const who = rest[0]!;
      const user = UUID.test(who) ? await findUserById(database.db, who) : await findUserByEmail(database.db, who);
      // An account erased already (or half-way, by a run that died) has no row: by id, the erasure is finished.
      const userId = user?.id ?? (UUID.test(who) ? who : undefined);
      if (!userId) {
        out(`no account ${who}`);
        return 1;
      }
      if (user) await createDeviceCookies(database.db).revokeAll(accountKeyOf(user.email));
      const metadata = { actor: { kind: 'system' as const, id: 'operator' }, commandId: context.ids.uuid(), timestamp: context.clock.now().toISOString() };
      try {
        const erased = await eraseAccount({ store: context.store, metadata }, accountErasureDeps(database, context.imageStore), { userId, by: 'operator', at: metadata.timestamp });
        const sessions = await createSessionRepository(database.db, context.clock, context.ids).revokeUserSessions(userId);
        out(`${userId}: erased (${erased.keysDeleted} keys and ${erased.photosDeleted} photos deleted, ${sessions} sessions ended)`);
        return 0;
      } catch (error) {
        if ((error as { code?: string }).code === 'user_not_found') {
          out(`no account ${who}`);
          return 1;
        }
        throw error;
      }
    }
    case 'encrypt-log': {
      if (rest.length > 1 || (rest.length === 1 && rest[0] !== '--dry-run')) return usage(out);
      const dryRun = rest[0] === '--dry-run';
      try {
        const result = await encryptLog(database.db, { dryRun });
        const counts = Object.entries(result.byType).map(([type, count]) => `${type} ${count}`);
        out(counts.length === 0 ? 'every personal field in the log is sealed already' : `events with personal data in plaintext: ${counts.join(', ')}`);
        if (dryRun) out('dry run: nothing was changed');
        else if (result.rewritten > 0) out(`${result.rewritten} events sealed; the rows as they were are in ${BACKUP_TABLE}: drop it (npm run accounts -- drop-backup) once satisfied, it holds the plaintext`);
        return 0;
      } catch (error) {
        if (error instanceof EncryptLogRefused) {
          out(error.message);
          return 1;
        }
        throw error;
      }
    }
    case 'drop-backup': {
      if (rest.length !== 0) return usage(out);
      out((await dropEncryptLogBackup(database.db)) ? `${BACKUP_TABLE} dropped` : `no ${BACKUP_TABLE}`);
      return 0;
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
    runAccountsCommand(process.argv.slice(2), { database, store, imageStore, clock: systemClock, ids: randomIds, out: (line) => console.log(line) }),
  );
}
