import { sql, type Kysely } from 'kysely';

// A graded card's row stops keeping the engine's whole result (about 3 KB, most of it measurements): the CardGraded
// event in the log holds it already, and a rebuild spent most of its time carrying it from the log into the row again
// (issue 14). The row now names that event by its place in the log (graded_event_position), and the card's page
// reads the result from there. What a recorded price changed in the shown result (the daily refresh's price in place
// of the grading's estimate) is kept as recorded_estimate: the {text, label} shown, null while the grading's own shows.
//
// Rows already here are carried over from the events: each names its stream's last CardGraded (a card graded again
// after its delete is the latest grade), and keeps as recorded_estimate the shown estimate wherever it is not the one
// the grading gave. A row with no CardGraded in the log cannot be read any more and stops the migration (the cards
// projection writes none such: a rebuild gives the rows back).

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table card_grades add column graded_event_position bigint`.execute(db);
  await sql`alter table card_grades add column recorded_estimate json`.execute(db);
  await sql`update card_grades g set
      graded_event_position = e.global_position,
      recorded_estimate = case
        when g.result->>'estimatedValue' is distinct from e.data->'result'->>'estimatedValue'
          or (g.result->'identification'->'estimatedValue')::jsonb is distinct from e.data->'result'->'identification'->'estimatedValue'
        then g.result->'identification'->'estimatedValue'
      end
    from (
      select distinct on (stream_id) stream_id, global_position, data from es_events
      where event_type = 'CardGraded' order by stream_id, stream_position desc
    ) e
    where e.stream_id = 'card-' || g.id`.execute(db);
  await sql`alter table card_grades alter column graded_event_position set not null`.execute(db);
  await sql`alter table card_grades drop column result`.execute(db);
}

/** The result back in the row, from the event with the recorded price laid over it (keys in jsonb's order, not the engine's). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table card_grades add column result json`.execute(db);
  await sql`update card_grades g set result = case
      when g.recorded_estimate is null then e.data->'result'
      else jsonb_set(jsonb_set(e.data->'result', '{estimatedValue}', to_jsonb(g.estimated_value)), '{identification,estimatedValue}', g.recorded_estimate::jsonb)
    end::json
    from es_events e where e.global_position = g.graded_event_position`.execute(db);
  await sql`alter table card_grades alter column result set not null`.execute(db);
  await sql`alter table card_grades drop column recorded_estimate`.execute(db);
  await sql`alter table card_grades drop column graded_event_position`.execute(db);
}
