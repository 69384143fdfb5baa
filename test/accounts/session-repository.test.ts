import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionRepository, GUEST_SESSION_TTL_MS, USER_SESSION_TTL_MS, type SessionRepository } from '../../src/infra/auth/session-repository.ts';
import { randomIds } from '../../src/infra/clock/clock.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/database.ts';

describe.each(await databaseKinds())('session repository on %s', (kind) => {
  let database: TestDatabase;
  let sessions: SessionRepository;
  let time = Date.parse('2026-03-01T00:00:00.000Z');

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    sessions = createSessionRepository(database.db, { now: () => new Date(time) }, randomIds);
  });
  afterAll(() => database?.destroy());

  it('finds a live session by its token only, never by its stored id', async () => {
    const { token, session } = await sessions.create('00000000-0000-4000-8000-000000000001');
    expect(session.expiresAt.getTime() - time).toBe(USER_SESSION_TTL_MS);
    expect(await sessions.find(token)).toEqual(session);
    expect(await sessions.find(session.id)).toBeNull();
    expect(await sessions.find(`${token[0] === 'A' ? 'B' : 'A'}${token.slice(1)}`)).toBeNull();
    expect(await sessions.find('')).toBeNull();
  });

  it('stops finding a revoked or expired session, and sweeps expired ones', async () => {
    const revoked = await sessions.create(null);
    await sessions.revoke(revoked.session.id);
    expect(await sessions.find(revoked.token)).toBeNull();

    const guest = await sessions.create(null);
    time += GUEST_SESSION_TTL_MS;
    expect(await sessions.find(guest.token)).toBeNull();
    time += 1;
    expect(await sessions.deleteExpired(new Date(time))).toBe(2);
    expect(await database.db.selectFrom('sessions').select('id').where('id', '=', guest.session.id).execute()).toEqual([]);
  });
});
