import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Approval chains and the kill switch. An approval now records who must approve it (`required_approvals` distinct
 * members of `approver_roles`, one of them the owner with `require_owner`), the credential that made its request, and
 * the member who may not be its only approver (`separate_from`); approvals made before keep one owner or admin. Each
 * member's step is a row of `approval_steps`, one per member and approval, never changed. A team's tiers are one row
 * of `team_approval_rules`. `spend_freezes` holds every freeze, at most one active (not lifted) per team and per key.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE approvals
      ADD COLUMN required_approvals int NOT NULL DEFAULT 1 CHECK (required_approvals >= 1),
      ADD COLUMN approver_roles jsonb NOT NULL DEFAULT '["owner", "admin"]'::jsonb,
      ADD COLUMN require_owner boolean NOT NULL DEFAULT false,
      ADD COLUMN spending_key_id uuid REFERENCES agent_keys(id),
      ADD COLUMN separate_from uuid REFERENCES users(id)`
  yield* sql`
    CREATE TABLE approval_steps (
      approval_id uuid NOT NULL REFERENCES approvals(id),
      team_id uuid NOT NULL REFERENCES teams(id),
      user_id uuid NOT NULL REFERENCES users(id),
      role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
      decision text NOT NULL CHECK (decision IN ('approved', 'denied')),
      note text,
      decided_at timestamptz NOT NULL,
      seq bigint GENERATED ALWAYS AS IDENTITY,
      PRIMARY KEY (approval_id, user_id)
    )`
  yield* sql`
    CREATE FUNCTION approval_steps_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'approval steps are append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
    END $$`
  yield* sql`
    CREATE TRIGGER approval_steps_append_only BEFORE UPDATE OR DELETE ON approval_steps
      FOR EACH ROW EXECUTE FUNCTION approval_steps_refuse_change()`
  yield* sql`
    CREATE TABLE team_approval_rules (
      team_id uuid PRIMARY KEY REFERENCES teams(id),
      tiers jsonb NOT NULL,
      updated_by uuid NOT NULL REFERENCES users(id),
      updated_at timestamptz NOT NULL
    )`
  yield* sql`
    CREATE TABLE spend_freezes (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      spending_key_id uuid REFERENCES agent_keys(id),
      mode text CHECK (mode IN ('live', 'test')),
      reason text NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 500),
      frozen_by uuid NOT NULL REFERENCES users(id),
      frozen_at timestamptz NOT NULL,
      lifted_by uuid REFERENCES users(id),
      lifted_at timestamptz,
      CHECK ((lifted_at IS NULL) = (lifted_by IS NULL)),
      CHECK ((spending_key_id IS NULL) = (mode IS NULL))
    )`
  yield* sql`CREATE UNIQUE INDEX spend_freezes_active_team ON spend_freezes (team_id) WHERE lifted_at IS NULL AND spending_key_id IS NULL`
  yield* sql`CREATE UNIQUE INDEX spend_freezes_active_key ON spend_freezes (spending_key_id) WHERE lifted_at IS NULL`
})
