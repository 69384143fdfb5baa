import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountSettingsSchema } from '../../src/contracts/account.ts';
import { routeDatabaseKind } from '../support/database.ts';
import { expectRefused, samplePhoto, startCardsApp, type CardsHarness } from './cards-harness.ts';

// Issue 34 through the routes: the leaderboard opt-out, Download my data (a zip holding everything recorded about the
// person, and their photos), Delete my account (password confirmed; every session ends; the email is free again).

/** The zip's entries, read by Python's zipfile (an independent reader, which checks every CRC). */
function unzip(zip: Buffer): Record<string, Buffer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'export-'));
  try {
    const file = path.join(dir, 'export.zip');
    writeFileSync(file, zip);
    const listing = execFileSync('python3', ['-c', 'import json,sys,zipfile\nz=zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\nprint(json.dumps({n: z.read(n).hex() for n in z.namelist()}))', file], { maxBuffer: 64 * 1024 * 1024 });
    return Object.fromEntries(Object.entries(JSON.parse(listing.toString()) as Record<string, string>).map(([name, hex]) => [name, Buffer.from(hex, 'hex')]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('personal data routes', () => {
  let h: CardsHarness;

  beforeAll(async () => {
    h = await startCardsApp(await routeDatabaseKind());
  }, 60_000);
  afterAll(() => h?.close());

  it('leaves the leaderboard and comes back', async () => {
    const { browser, user } = await h.registered();
    expect((await browser.grade([['frontImage', { bytes: await samplePhoto(1) }]])).statusCode).toBe(200);
    await h.catchUp();
    const ids = async () => ((await h.browser().get('/api/leaderboard')).json() as { id: string }[]).map((entry) => entry.id);
    expect(await ids()).toContain(user.id);

    const out = await browser.put('/api/account/leaderboard', { leaderboard_opt_out: true });
    expect(out.statusCode).toBe(200);
    expect(accountSettingsSchema.parse(out.json()).leaderboard_opt_out).toBe(true);
    await h.catchUp();
    expect(await ids()).not.toContain(user.id);

    expect((await browser.put('/api/account/leaderboard', { leaderboard_opt_out: false })).json().leaderboard_opt_out).toBe(false);
    await h.catchUp();
    expect(await ids()).toContain(user.id);
    await expectRefused(await browser.put('/api/account/leaderboard', { leaderboard_opt_out: 'yes' }), 400, 'invalid_request');
    await expectRefused(await h.browser().put('/api/account/leaderboard', { leaderboard_opt_out: true }), 401, 'unauthorized');
  });

  it('downloads everything recorded about me as a zip: my events and rows as JSON, and my photos', async () => {
    const { browser, user } = await h.registered();
    const photo = await samplePhoto(2);
    const graded = (await browser.grade([['frontImage', { bytes: photo }]])).json() as { id: string };
    const address = { fullName: 'Grace Hopper', addressLine1: '1 Navy Yard Road', city: 'Arlington', state: 'VA', zipCode: '22202', country: 'United States', phoneNumber: '5559876543' };
    expect((await browser.post('/api/shipping-addresses', address)).statusCode).toBe(201);
    const me = (await browser.get('/api/user')).json() as { email: string };

    const response = await browser.get('/api/account/export');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="card-grader-my-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    const entries = unzip(response.rawPayload);
    const data = JSON.parse(entries['my-data.json']!.toString()) as {
      userId: string;
      events: { type: string; data: Record<string, unknown> }[];
      readModels: Record<string, Record<string, unknown>[]>;
      photos: string[];
    };
    expect(data.userId).toBe(user.id);
    // The events as recorded, personal fields opened (never the sealed text).
    const registered = data.events.find((event) => event.type === 'UserRegistered')!;
    expect(registered.data).toMatchObject({ email: me.email, firstName: 'Grace', lastName: 'Hopper', phone: '5551234567' });
    expect(data.events.find((event) => event.type === 'AddressAdded')!.data.fields).toMatchObject({ addressLine1: '1 Navy Yard Road', phoneNumber: '5559876543' });
    expect(data.events.map((event) => event.type)).toEqual(expect.arrayContaining(['EmailClaimed', 'UserRegistered', 'CardGraded', 'AddressAdded']));
    expect(JSON.stringify(data)).not.toContain('pd1:');
    // The read models' rows, without credentials.
    expect(data.readModels.users![0]).toMatchObject({ id: user.id, email: me.email, phone: '5551234567' });
    expect(data.readModels.users![0]!.password).toBeUndefined();
    expect(data.readModels.shipping_addresses![0]).toMatchObject({ address_line1: '1 Navy Yard Road' });
    expect(data.readModels.card_grades!.map((row) => row.id)).toEqual([graded.id]);
    // The photo, byte for byte.
    expect(data.photos.length).toBeGreaterThanOrEqual(1);
    expect(Object.values(entries).some((bytes) => bytes.equals(photo))).toBe(true);
    await expectRefused(await h.browser().get('/api/account/export'), 401, 'unauthorized');
  });

  it('deletes my account once the password is confirmed: signed out everywhere, the email free again', async () => {
    const { browser, user } = await h.registered();
    const me = (await browser.get('/api/user')).json() as { email: string };
    const otherDevice = h.browser();
    expect((await otherDevice.post('/api/agscard/login', { email: me.email, password: 'Secret123' })).statusCode).toBe(200);

    await expectRefused(await browser.post('/api/account/delete', { password: 'Wrong123' }), 400, 'wrong_current_password');
    await expectRefused(await browser.post('/api/account/delete', {}), 400, 'invalid_request');
    expect((await browser.get('/api/user')).statusCode).toBe(200);

    const deleted = await browser.post('/api/account/delete', { password: 'Secret123' });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ message: 'Your account and your personal data have been deleted.' });
    expect((await browser.get('/api/user')).statusCode).toBe(401);
    expect((await otherDevice.get('/api/user')).statusCode).toBe(401);
    const signIn = await h.browser().post('/api/agscard/login', { email: me.email, password: 'Secret123' });
    expect(signIn.statusCode).toBe(401);
    expect(await h.database.db.selectFrom('users').select('id').where('id', '=', user.id).executeTakeFirst()).toBeUndefined();

    // The address can be registered again, by anyone.
    const again = await h.browser().post('/api/agscard/register', { first_name: 'Ada', last_name: 'Byron', email: me.email, phone: '5551234567', password: 'Secret123', password_confirmation: 'Secret123', is_marketing_notifications_enabled: false });
    expect(again.statusCode).toBe(201);
  });
});
