import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Tables } from './schema.ts';

// Secrets the server signs with (card ids, device cookies) live in the database, made by whichever process needs
// one first, so zero set-up works and every API process signs alike.

export interface ServerSecretsTable {
  name: string;
  secret: string;
  created_at: Date;
}
export interface ServerSecretsTables {
  server_secrets: ServerSecretsTable;
}

/** The secret named `name`, created (32 random bytes, base64) if no process has made it yet. */
export async function serverSecret(db: Kysely<Tables>, name: string): Promise<Buffer> {
  await db
    .insertInto('server_secrets')
    .values({ name, secret: randomBytes(32).toString('base64'), created_at: new Date() })
    .onConflict((c) => c.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('server_secrets').select('secret').where('name', '=', name).executeTakeFirstOrThrow();
  return Buffer.from(row.secret, 'base64');
}
