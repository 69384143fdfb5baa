import type { EventStoreTables } from '../event-store/tables.ts';
import type { UsersTables } from '../../projections/users/table.ts';
import type { SessionsTables } from '../auth/sessions-table.ts';

// The typed shape of every table, for Kysely. Each feature declares its own tables beside its code
// and adds them here, so one import shows the whole database.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Tables extends EventStoreTables, UsersTables, SessionsTables {}
