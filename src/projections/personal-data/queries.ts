import { sql, type Kysely } from 'kysely';
import type { Tables } from '../../infra/database/schema.ts';
import { IMAGES_PATH } from '../cards/image-urls.ts';

// What the read models hold about a person, for erasing them (issue 34): which stored photos no one else names.

/** The stored photos that rows of these owners name and rows of no other owner do (content-addressed: shared bytes stay). */
export async function photosOnlyOwnedBy(db: Kysely<Tables>, owners: readonly string[]): Promise<string[]> {
  if (owners.length === 0) return [];
  const hashOfUrl = (column: string) => sql`substring(${sql.ref(column)} from ${`^${IMAGES_PATH}/([0-9a-f]{64})$`})`;
  const { rows } = await sql<{ hash: string }>`
    with refs (owner, hash) as (
      select owner, front_image_hash from card_grades
      union all select owner, back_image_hash from card_grades
      union all select owner, annotated_front_hash from card_grades
      union all select owner, annotated_back_hash from card_grades
      union all select owner, ${hashOfUrl('image_url')} from portfolio_cards
      union all select owner, ${hashOfUrl('back_image_url')} from portfolio_cards
      union all select owner, ${hashOfUrl('image_url')} from feedback
    )
    select distinct r.hash from refs r
    where r.hash is not null and r.owner in (${sql.join(owners)})
      and not exists (select 1 from refs o where o.hash = r.hash and o.owner not in (${sql.join(owners)}))
    order by r.hash`.execute(db);
  return rows.map((row) => row.hash);
}
