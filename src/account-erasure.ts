import type { EraseAccountDeps } from './commands/accounts/erase-account.ts';
import type { Database } from './infra/database/database.ts';
import type { ImageStore } from './infra/image-storage/image-store.ts';
import { claimedGuestIds } from './infra/personal-data/claimed-guests.ts';
import { createPersonKeys } from './infra/personal-data/person-keys.ts';
import { photosOnlyOwnedBy } from './projections/personal-data/queries.ts';

// What erasing an account is given, the same for the Settings route and the operator's `npm run accounts -- erase`.
export function accountErasureDeps(database: Database, imageStore: Pick<ImageStore, 'delete'>): EraseAccountDeps {
  return {
    personKeys: createPersonKeys(database.db),
    claimedGuestIds: (userId) => claimedGuestIds(database.db, userId),
    photosOnlyOwnedBy: (owners) => photosOnlyOwnedBy(database.db, owners),
    deletePhoto: (hash) => imageStore.delete(hash),
  };
}
