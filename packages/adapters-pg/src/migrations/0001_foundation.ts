import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** Users, teams, memberships, and the append-only double-entry ledger. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE users (
      id uuid PRIMARY KEY,
      email text NOT NULL,
      full_name text,
      current_team_id uuid,
      created_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`
    CREATE TABLE teams (
      id uuid PRIMARY KEY,
      name text NOT NULL,
      base_currency char(3) NOT NULL,
      created_at timestamptz NOT NULL
    )`
  yield* sql`
    CREATE TABLE team_members (
      team_id uuid NOT NULL REFERENCES teams(id),
      user_id uuid NOT NULL REFERENCES users(id),
      role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (team_id, user_id)
    )`
  yield* sql`CREATE INDEX team_members_user_idx ON team_members (user_id)`
  yield* sql`
    CREATE TABLE ledger_accounts (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      mode text NOT NULL CHECK (mode IN ('live', 'test')),
      kind text NOT NULL CHECK (kind IN ('spend', 'settlement', 'external')),
      name text NOT NULL,
      currency char(3) NOT NULL,
      posted_sum bigint NOT NULL DEFAULT 0,
      pending_sum bigint NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL,
      CHECK (kind <> 'spend' OR posted_sum + LEAST(pending_sum, 0) >= 0)
    )`
  yield* sql`CREATE INDEX ledger_accounts_team_idx ON ledger_accounts (team_id, mode, kind, currency)`
  yield* sql`
    CREATE TABLE ledger_transactions (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      mode text NOT NULL CHECK (mode IN ('live', 'test')),
      kind text NOT NULL CHECK (kind IN ('posted', 'pending', 'post_pending', 'void_pending')),
      code text NOT NULL,
      reference text NOT NULL,
      pending_id uuid REFERENCES ledger_transactions(id),
      created_at timestamptz NOT NULL,
      CHECK ((kind IN ('post_pending', 'void_pending')) = (pending_id IS NOT NULL))
    )`
  yield* sql`
    CREATE UNIQUE INDEX ledger_transactions_reference_key
      ON ledger_transactions (team_id, mode, code, reference, kind) WHERE kind IN ('posted', 'pending')`
  yield* sql`CREATE UNIQUE INDEX ledger_transactions_pending_key ON ledger_transactions (pending_id) WHERE pending_id IS NOT NULL`
  yield* sql`CREATE INDEX ledger_transactions_team_idx ON ledger_transactions (team_id, created_at DESC, id DESC)`
  yield* sql`
    CREATE TABLE ledger_entries (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      transaction_id uuid NOT NULL REFERENCES ledger_transactions(id),
      account_id uuid NOT NULL REFERENCES ledger_accounts(id),
      amount bigint NOT NULL CHECK (amount <> 0),
      currency char(3) NOT NULL,
      pending boolean NOT NULL
    )`
  yield* sql`CREATE INDEX ledger_entries_transaction_idx ON ledger_entries (transaction_id)`
  yield* sql`CREATE INDEX ledger_entries_account_idx ON ledger_entries (account_id)`
  yield* sql`
    CREATE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'ledger rows are append-only: % on % refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
    END $$`
  for (const table of ["ledger_entries", "ledger_transactions"]) {
    yield* sql.unsafe(
      `CREATE TRIGGER ${table}_append_only BEFORE UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change()`
    )
    yield* sql.unsafe(
      `CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change()`
    )
  }
})
