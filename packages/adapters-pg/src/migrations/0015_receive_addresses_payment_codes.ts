import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Transfers, part one: every team's receive handle (its address in each mode: `acme-7fk2@svc`, `acme-7fk2@test.svc`),
 * unique and never changed, backfilled for existing teams with the rule new teams follow (slug of the name, a hyphen,
 * four characters of the unambiguous alphabet); and payment codes, used at most once, final once used.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE receive_handles (
      team_id uuid PRIMARY KEY REFERENCES teams(id),
      handle text NOT NULL UNIQUE CHECK (handle ~ '^[a-z0-9]+(-[a-z0-9]+)*-[23456789abcdefghjkmnpqrstuvwxyz]{4}$'),
      created_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`
    CREATE FUNCTION receive_handles_immutable_guard() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'receive handle % never changes', OLD.handle USING ERRCODE = 'restrict_violation';
    END $$`
  yield* sql`
    CREATE TRIGGER receive_handles_immutable BEFORE UPDATE OR DELETE ON receive_handles
      FOR EACH ROW EXECUTE FUNCTION receive_handles_immutable_guard()`
  yield* sql`
    DO $$
    DECLARE
      alphabet constant text := '23456789abcdefghjkmnpqrstuvwxyz';
      t record;
      slug text;
      inserted integer;
    BEGIN
      FOR t IN SELECT id, name FROM teams WHERE id NOT IN (SELECT team_id FROM receive_handles) ORDER BY created_at, id LOOP
        slug := lower(regexp_replace(normalize(t.name, NFKD), '[\u0300-\u036f]', '', 'g'));
        slug := trim(BOTH '-' FROM regexp_replace(slug, '[^a-z0-9]+', '-', 'g'));
        slug := rtrim(left(slug, 20), '-');
        IF slug = '' THEN slug := 'team'; END IF;
        LOOP
          INSERT INTO receive_handles (team_id, handle, created_at)
          SELECT t.id, slug || '-' || string_agg(substr(alphabet, 1 + floor(random() * 31)::integer, 1), ''), now()
          FROM generate_series(1, 4)
          ON CONFLICT (handle) DO NOTHING;
          GET DIAGNOSTICS inserted = ROW_COUNT;
          EXIT WHEN inserted = 1;
        END LOOP;
      END LOOP;
    END $$`
  yield* sql`
    CREATE TABLE payment_codes (
      code text PRIMARY KEY CHECK (code ~ '^PC-[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$'),
      team_id uuid NOT NULL REFERENCES receive_handles(team_id),
      mode text NOT NULL CHECK (mode IN ('live', 'test')),
      amount bigint CHECK (amount IS NULL OR amount > 0),
      currency text NOT NULL CHECK (currency = 'USD'),
      memo text CHECK (memo IS NULL OR char_length(memo) <= 500),
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      used_by_transfer_id uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((used_at IS NULL) = (used_by_transfer_id IS NULL))
    )`
  yield* sql`CREATE INDEX payment_codes_team_idx ON payment_codes (team_id, mode, created_at DESC)`
  yield* sql`
    CREATE FUNCTION payment_codes_used_guard() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF OLD.used_at IS NOT NULL THEN
        RAISE EXCEPTION 'payment code % was used', OLD.code USING ERRCODE = 'restrict_violation';
      END IF;
      RETURN NEW;
    END $$`
  yield* sql`
    CREATE TRIGGER payment_codes_used BEFORE UPDATE ON payment_codes
      FOR EACH ROW EXECUTE FUNCTION payment_codes_used_guard()`
})
