import type { EventStoreTables } from '../event-store/tables.ts';
import type { UsersTables } from '../../projections/users/table.ts';
import type { SessionsTables } from '../auth/sessions-table.ts';
import type { CardTables } from '../../projections/cards/tables.ts';
import type { LeaderboardTables } from '../../projections/leaderboard/table.ts';
import type { AchievementTables } from '../../projections/achievements/tables.ts';
import type { FeedbackTables } from '../../projections/feedback/table.ts';
import type { ServerSecretsTables } from './server-secrets.ts';
import type { PortfolioTables } from '../../projections/portfolio/tables.ts';
import type { AddressTables } from '../../projections/addresses/table.ts';
import type { OrderTables } from '../../projections/orders/tables.ts';
import type { ImportTables } from '../../projections/imports/tables.ts';
import type { PersonKeysTables } from '../personal-data/person-keys.ts';
import type { ProfessionalGradeTables } from '../../projections/professional-grades/table.ts';

// The typed shape of every table, for Kysely. Each feature declares its own tables beside its code
// and adds them here, so one import shows the whole database.
export interface Tables extends EventStoreTables, UsersTables, SessionsTables, CardTables, LeaderboardTables, AchievementTables, ServerSecretsTables, PortfolioTables, FeedbackTables, AddressTables, OrderTables, ImportTables, PersonKeysTables, ProfessionalGradeTables {}
