import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Audit entries are chained at commit (issue 42, ADR 0041). Until now an entry took its team's `audit_heads` row lock
 * when it was written, mid-transaction, so a transaction that published an event before it locked ledger accounts (an
 * approval's step, then the posting of its hold) and one that locked the accounts before publishing (a cancel) could
 * wait on each other: a deadlock. Now a transaction's entries wait in `audit_pending`, one row per transaction
 * (`xact`) with its entries in the order written, and a deferred constraint trigger, which fires once per transaction
 * (later writes update the row), appends them to `audit_entries` at commit, by team id and then in that order. The
 * head is thus the last lock any transaction takes, held only while it commits, and several teams' heads are taken in
 * team id order. Events (`outbox_events`, through the statement trigger of 0020) and direct appends
 * (`audit_stage`) wait alike, so a transaction's entries keep the order it wrote them in.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE audit_pending (
      xact xid8 PRIMARY KEY,
      entries jsonb NOT NULL
    )`
  yield* sql`
    CREATE FUNCTION audit_stage(p_entries jsonb) RETURNS void LANGUAGE sql AS $$
      INSERT INTO audit_pending AS p (xact, entries) VALUES (pg_current_xact_id(), p_entries)
      ON CONFLICT (xact) DO UPDATE SET entries = p.entries || EXCLUDED.entries
    $$`
  yield* sql`
    CREATE FUNCTION audit_pending_append() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      WITH due AS (DELETE FROM audit_pending WHERE xact = NEW.xact RETURNING entries)
      INSERT INTO audit_entries (team_id, id, content, seq, prev_hash, hash)
      SELECT (e.entry->>'team_id')::uuid, (e.entry->>'id')::uuid, e.entry->>'content', 0, '', ''
      FROM due, jsonb_array_elements(due.entries) WITH ORDINALITY AS e(entry, position)
      ORDER BY (e.entry->>'team_id')::uuid, e.position;
      RETURN NULL;
    END $$`
  yield* sql`
    CREATE CONSTRAINT TRIGGER audit_pending_append AFTER INSERT ON audit_pending
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION audit_pending_append()`
  yield* sql`
    CREATE OR REPLACE FUNCTION outbox_events_audit() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM audit_stage(staged.entries)
      FROM (
        SELECT jsonb_agg(
                 jsonb_build_object(
                   'team_id', e.team_id, 'id', e.id,
                   'content', jsonb_build_object(
                     'id', e.id, 'type', e.type, 'mode', e.mode,
                     'at', to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                     'data', e.data)::text)
                 ORDER BY e.position) AS entries
        FROM (SELECT n.*, row_number() OVER () AS position FROM new_events n) e
      ) staged
      WHERE staged.entries IS NOT NULL;
      RETURN NULL;
    END $$`
})
