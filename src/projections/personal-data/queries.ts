import { sql, type Kysely } from 'kysely';
import type { Tables } from '../../infra/database/schema.ts';
import { IMAGES_PATH } from '../cards/image-urls.ts';

// What the read models hold about a person (issue 34): their rows, for the export, and their stored photos, for the
// export and for erasing them.

const hashOfUrl = (column: string) => sql`substring(${sql.ref(column)} from ${`^${IMAGES_PATH}/([0-9a-f]{64})$`})`;

/** Every stored photo named by a row, with the row's owner. */
const photoRefs = sql`
    with refs (owner, hash) as (
      select owner, front_image_hash from card_grades
      union all select owner, back_image_hash from card_grades
      union all select owner, annotated_front_hash from card_grades
      union all select owner, annotated_back_hash from card_grades
      union all select owner, reflected_light_hash from card_grades
      union all select owner, ${hashOfUrl('card_image_url')} from card_grades
      union all select owner, ${hashOfUrl('card_thumb_url')} from card_grades
      union all select owner, ${hashOfUrl('back_card_image_url')} from card_grades
      union all select owner, ${hashOfUrl('image_url')} from portfolio_cards
      union all select owner, ${hashOfUrl('back_image_url')} from portfolio_cards
      union all select owner, ${hashOfUrl('card_image_url')} from portfolio_cards
      union all select owner, ${hashOfUrl('card_thumb_url')} from portfolio_cards
      union all select owner, ${hashOfUrl('back_card_image_url')} from portfolio_cards
      union all select owner, ${hashOfUrl('image_url')} from feedback
    )`;

/** The stored photos that rows of these owners name and rows of no other owner do (content-addressed: shared bytes stay). */
export async function photosOnlyOwnedBy(db: Kysely<Tables>, owners: readonly string[]): Promise<string[]> {
  if (owners.length === 0) return [];
  const { rows } = await sql<{ hash: string }>`
    ${photoRefs}
    select distinct r.hash from refs r
    where r.hash is not null and r.owner in (${sql.join(owners)})
      and not exists (select 1 from refs o where o.hash = r.hash and o.owner not in (${sql.join(owners)}))
    order by r.hash`.execute(db);
  return rows.map((row) => row.hash);
}

/** The stored photos that rows of these owners name. */
export async function photosOf(db: Kysely<Tables>, owners: readonly string[]): Promise<string[]> {
  if (owners.length === 0) return [];
  const { rows } = await sql<{ hash: string }>`
    ${photoRefs}
    select distinct r.hash from refs r where r.hash is not null and r.owner in (${sql.join(owners)}) order by r.hash`.execute(db);
  return rows.map((row) => row.hash);
}

/**
 * Every read-model row about the person, by table (Art. 20): what each screen shows them. The password hash and
 * the session ids are left out: they are credentials, not data about the person.
 */
export async function personalRows(db: Kysely<Tables>, userId: string, owners: readonly string[]): Promise<Record<string, unknown[]>> {
  const rowsOf = async (query: ReturnType<typeof sql>) => (await query.execute(db)).rows;
  const owned = sql.join(owners);
  return {
    users: await rowsOf(sql`select * from users where id = ${userId}`).then((rows) => rows.map((row) => ({ ...(row as object), password: undefined }))),
    shipping_addresses: await rowsOf(sql`select * from shipping_addresses where user_id = ${userId} order by created_at, id`),
    card_grades: await rowsOf(sql`select * from card_grades where owner in (${owned}) order by created_at, id`),
    price_history: await rowsOf(sql`select p.* from price_history p join card_grades g on g.id = p.card_grade_id where g.owner in (${owned}) order by p.created_at, p.id`),
    portfolio_cards: await rowsOf(sql`select * from portfolio_cards where owner in (${owned}) order by created_at, id`),
    submission_orders: await rowsOf(sql`select * from submission_orders where user_id = ${userId} order by created_at, id`),
    submission_cards: await rowsOf(sql`select c.* from submission_cards c join submission_orders o on o.id = c.submission_id where o.user_id = ${userId} order by c.created_at, c.id`),
    feedback: await rowsOf(sql`select * from feedback where owner in (${owned}) order by created_at, id`),
    imports: await rowsOf(sql`select * from imports where owner in (${owned}) order by created_at, id`),
    import_cards: await rowsOf(sql`select c.* from import_cards c join imports i on i.id = c.import_id where i.owner in (${owned}) order by c.import_id, c.row_number`),
    user_achievements: await rowsOf(sql`select * from user_achievements where user_id = ${userId} order by earned_at, id`),
    leaderboard: await rowsOf(sql`select * from leaderboard where user_id = ${userId}`),
    sessions: await rowsOf(sql`select user_id, guest_id, created_at, expires_at, revoked_at from sessions where user_id = ${userId} order by created_at`),
  };
}
