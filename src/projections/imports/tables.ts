import type { ColumnType } from 'kysely';
import type { ImportStage, ImportStatus, RowStatus } from '../../contracts/imports.ts';

// The bulk-import read models (SPEC.md §3 imports, import_cards). Written only by the imports projection.

type Time = ColumnType<Date, Date | string, Date | string>;

export interface ImportsTable {
  id: string;
  /** `user:<id>` */
  owner: string;
  user_id: string;
  file_name: string;
  file_size: number;
  total_cards: number;
  processed_cards: ColumnType<number, number | undefined, number>;
  successful_cards: ColumnType<number, number | undefined, number>;
  failed_cards: ColumnType<number, number | undefined, number>;
  duplicate_cards: ColumnType<number, number | undefined, number>;
  status: ImportStatus;
  progress: ColumnType<number, number | undefined, number>;
  current_stage: ImportStage;
  current_card: string | null;
  last_processed_row: ColumnType<number, number | undefined, number>;
  /** Seconds. */
  estimated_time_remaining: number | null;
  average_time_per_card_ms: number | null;
  error_message: string | null;
  generation: ColumnType<number, number | undefined, number>;
  started_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  completed_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  created_at: Time;
  updated_at: Time;
}

export interface ImportCardsTable {
  /** `<importId>:<row>` */
  id: string;
  import_id: string;
  card_id: string | null;
  portfolio_card_id: number;
  front_image_url: string;
  back_image_url: string | null;
  item_id: string | null;
  row_number: number;
  status: RowStatus;
  error_message: string | null;
  /** Milliseconds. */
  processing_time: number | null;
  /** Why the row could not be worked on at all, decided when the file was read. */
  problem: string | null;
  duplicate_of: number | null;
  generation: ColumnType<number, number | undefined, number>;
  created_at: Time;
}

export interface ImportTables {
  imports: ImportsTable;
  import_cards: ImportCardsTable;
}
