import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Policy versions and the tamper-evident audit log (issue 21, items 5 and 10).
 *
 * Every change of a spending key's policy or of a team's default policy writes an immutable `policy_versions` row
 * (who, when, the whole policy), numbered per subject from 1; `agent_keys.policy_version` and
 * `team_spend_policies.version` are the numbers in force (a team API key's is 1 and means nothing). Keys and team policies that exist before this migration get
 * their version 1 from their current policy.
 *
 * `audit_entries` is a per-team hash chain. An insert gives only `team_id`, `id` and `content` (canonical JSON text);
 * the row trigger assigns the team's next `seq`, `prev_hash` (the previous entry's `hash`, 64 zeros for the first)
 * and `hash` = hex SHA-256 of the UTF-8 bytes of `prev_hash || content`, from `audit_heads`, which it updates with
 * the row lock that serialises a team's appends. Rows are never updated nor deleted (a trigger, as for ledger rows).
 * Every `outbox_events` row is appended to its team's log by a statement trigger, in insertion order, so every
 * decision, approval and freeze that publishes an event is audited in the transaction that makes it.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE agent_keys ADD COLUMN policy_version int NOT NULL DEFAULT 1 CHECK (policy_version > 0)`
  yield* sql`ALTER TABLE team_spend_policies ADD COLUMN version int NOT NULL DEFAULT 1`
  yield* sql`
    CREATE TABLE policy_versions (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      subject text NOT NULL CHECK (subject IN ('spending_key', 'team')),
      spending_key_id uuid REFERENCES agent_keys(id),
      version int NOT NULL CHECK (version > 0),
      policy jsonb NOT NULL,
      created_by uuid REFERENCES users(id),
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((subject = 'spending_key') = (spending_key_id IS NOT NULL))
    )`
  yield* sql`CREATE UNIQUE INDEX policy_versions_key_idx ON policy_versions (spending_key_id, version) WHERE subject = 'spending_key'`
  yield* sql`CREATE UNIQUE INDEX policy_versions_team_idx ON policy_versions (team_id, version) WHERE subject = 'team'`
  yield* sql`
    INSERT INTO policy_versions (id, team_id, subject, spending_key_id, version, policy, created_by, created_at)
    SELECT gen_random_uuid(), team_id, 'spending_key', id, 1, policy, created_by, created_at
    FROM agent_keys WHERE kind = 'spending_key'`
  yield* sql`
    INSERT INTO policy_versions (id, team_id, subject, spending_key_id, version, policy, created_by, created_at)
    SELECT gen_random_uuid(), team_id, 'team', NULL, 1, policy, NULL, updated_at FROM team_spend_policies`
  yield* sql`
    CREATE FUNCTION policy_versions_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'policy versions are immutable: % on % refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'raise_exception';
    END $$`
  yield* sql`
    CREATE TRIGGER policy_versions_immutable BEFORE UPDATE OR DELETE ON policy_versions
    FOR EACH ROW EXECUTE FUNCTION policy_versions_refuse_change()`

  yield* sql`
    CREATE TABLE audit_heads (
      team_id uuid PRIMARY KEY REFERENCES teams(id),
      seq bigint NOT NULL,
      prev_hash text NOT NULL,
      hash text NOT NULL
    )`
  yield* sql`
    CREATE TABLE audit_entries (
      team_id uuid NOT NULL REFERENCES teams(id),
      seq bigint NOT NULL,
      id uuid NOT NULL,
      content text NOT NULL,
      prev_hash text NOT NULL,
      hash text NOT NULL,
      PRIMARY KEY (team_id, seq)
    )`
  yield* sql`CREATE INDEX audit_entries_id_idx ON audit_entries (team_id, id)`
  yield* sql`
    CREATE FUNCTION audit_entries_chain() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      v_genesis constant text := repeat('0', 64);
    BEGIN
      INSERT INTO audit_heads AS h (team_id, seq, prev_hash, hash)
      VALUES (NEW.team_id, 1, v_genesis,
              encode(sha256(convert_to(v_genesis || NEW.content, 'UTF8')), 'hex'))
      ON CONFLICT (team_id) DO UPDATE
        SET seq = h.seq + 1, prev_hash = h.hash,
            hash = encode(sha256(convert_to(h.hash || NEW.content, 'UTF8')), 'hex')
      RETURNING h.seq, h.prev_hash, h.hash INTO NEW.seq, NEW.prev_hash, NEW.hash;
      RETURN NEW;
    END $$`
  yield* sql`
    CREATE TRIGGER audit_entries_chain BEFORE INSERT ON audit_entries
    FOR EACH ROW EXECUTE FUNCTION audit_entries_chain()`
  yield* sql`
    CREATE FUNCTION audit_entries_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'audit entries are append-only: % on % refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'raise_exception';
    END $$`
  yield* sql`
    CREATE TRIGGER audit_entries_append_only BEFORE UPDATE OR DELETE ON audit_entries
    FOR EACH ROW EXECUTE FUNCTION audit_entries_refuse_change()`
  yield* sql`
    CREATE TRIGGER audit_entries_no_truncate BEFORE TRUNCATE ON audit_entries
    FOR EACH STATEMENT EXECUTE FUNCTION audit_entries_refuse_change()`
  yield* sql`
    CREATE FUNCTION outbox_events_audit() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO audit_entries (team_id, id, content, seq, prev_hash, hash)
      SELECT e.team_id, e.id,
             jsonb_build_object(
               'id', e.id, 'type', e.type, 'mode', e.mode,
               'at', to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
               'data', e.data)::text,
             0, '', ''
      FROM (SELECT n.*, row_number() OVER () AS position FROM new_events n) e
      ORDER BY e.team_id, e.position;
      RETURN NULL;
    END $$`
  yield* sql`
    CREATE TRIGGER outbox_events_audit AFTER INSERT ON outbox_events
    REFERENCING NEW TABLE AS new_events
    FOR EACH STATEMENT EXECUTE FUNCTION outbox_events_audit()`
})
