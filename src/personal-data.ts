import type { EraseAccountDeps } from './commands/accounts/erase-account.ts';
import type { Database } from './infra/database/database.ts';
import type { ImageStore } from './infra/image-storage/image-store.ts';
import { IMAGE_FORMATS } from './contracts/image-formats.ts';
import { claimedGuestIds } from './infra/personal-data/claimed-guests.ts';
import { createPersonKeys } from './infra/personal-data/person-keys.ts';
import { personalEvents } from './infra/personal-data/personal-events.ts';
import { createPersonalDataSealer } from './infra/personal-data/sealed-fields.ts';
import { storeZip } from './infra/zip/store-zip.ts';
import { personalRows, photosOf, photosOnlyOwnedBy } from './projections/personal-data/queries.ts';
import { emailClaimSecret } from './commands/accounts/streams.ts';

// A person's data, taken back (issue 34, GDPR Art. 17 and 20): erasing it and exporting it, the same for the Settings
// routes and the operator's `npm run accounts`.

/** What erasing an account is given. */
export function accountErasureDeps(database: Database, imageStore: Pick<ImageStore, 'delete'>): EraseAccountDeps {
  return {
    personKeys: createPersonKeys(database.db),
    claimedGuestIds: (userId) => claimedGuestIds(database.db, userId),
    photosOnlyOwnedBy: (owners) => photosOnlyOwnedBy(database.db, owners),
    deletePhoto: (hash) => imageStore.delete(hash),
    emailClaimSecret: emailClaimSecret(database.db),
  };
}

export const EXPORT_DATA_FILE = 'my-data.json';

/**
 * Everything recorded about the person as a zip: `my-data.json` (their events as the store reads them, and their
 * read-model rows) and `photos/<hash>.<ext>`, each photo their rows name.
 */
export async function exportPersonalData(database: Database, imageStore: Pick<ImageStore, 'get'>, userId: string, at: Date): Promise<Buffer> {
  const guestIds = await claimedGuestIds(database.db, userId);
  const owners = [`user:${userId}`, ...guestIds.map((guestId) => `guest:${guestId}`)];
  const events = await personalEvents(database.db, createPersonalDataSealer(createPersonKeys(database.db)), userId, guestIds);
  const readModels = await personalRows(database.db, userId, owners);
  const photos: { name: string; bytes: Uint8Array }[] = [];
  const missingPhotos: string[] = [];
  for (const hash of await photosOf(database.db, owners)) {
    const image = await imageStore.get(hash);
    if (image) photos.push({ name: `photos/${hash}${extensionOf(image.contentType)}`, bytes: image.bytes });
    else missingPhotos.push(hash);
  }
  const document = {
    exportedAt: at.toISOString(),
    userId,
    guestSessions: guestIds,
    events,
    readModels,
    photos: photos.map((photo) => photo.name),
    missingPhotos,
  };
  return storeZip([{ name: EXPORT_DATA_FILE, bytes: Buffer.from(JSON.stringify(document, null, 2)) }, ...photos], at);
}

/** `.jpg` for image/jpeg: the format's first extension, so the photo opens by double-click. */
function extensionOf(contentType: string): string {
  return IMAGE_FORMATS.find((format) => (format.mimeTypes as readonly string[]).includes(contentType))?.extensions[0] ?? '';
}
