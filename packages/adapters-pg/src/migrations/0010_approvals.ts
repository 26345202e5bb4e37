import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Approvals become their own table, one object for any kind of request (spend requests now), with its own expiry,
 * decision and decider; a decided approval is final. Spend requests keep only a reference. Backfilled from the
 * approval each request carried as JSON.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE approvals (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      mode text NOT NULL CHECK (mode IN ('live', 'test')),
      subject_type text NOT NULL CHECK (subject_type IN ('spend_request')),
      subject_id uuid NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'expired', 'canceled')),
      expires_at timestamptz NOT NULL,
      decided_at timestamptz,
      decided_by uuid REFERENCES users(id),
      note text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (subject_type, subject_id),
      CHECK ((status = 'pending') = (decided_at IS NULL)),
      CHECK (decided_by IS NULL OR status IN ('approved', 'denied'))
    )`
  yield* sql`CREATE INDEX approvals_team_idx ON approvals (team_id, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX approvals_pending_expiry_idx ON approvals (expires_at) WHERE status = 'pending'`
  yield* sql`
    CREATE FUNCTION approvals_final_status_guard() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF OLD.status <> 'pending' THEN
        RAISE EXCEPTION 'approval % is final (%)', OLD.id, OLD.status USING ERRCODE = 'restrict_violation';
      END IF;
      RETURN NEW;
    END $$`
  yield* sql`
    CREATE TRIGGER approvals_final_status BEFORE UPDATE ON approvals
      FOR EACH ROW EXECUTE FUNCTION approvals_final_status_guard()`
  yield* sql`
    INSERT INTO approvals (id, team_id, mode, subject_type, subject_id, status, expires_at, decided_at, decided_by, note,
                           created_at, updated_at)
    SELECT approval_id, team_id, mode, 'spend_request', id, approval->>'status', (approval->>'expiresAt')::timestamptz,
           (approval->>'decidedAt')::timestamptz, (approval->>'decidedBy')::uuid, approval->>'note', created_at,
           COALESCE((approval->>'decidedAt')::timestamptz, created_at)
    FROM spend_requests WHERE approval_id IS NOT NULL`
  yield* sql`ALTER TABLE spend_requests ADD CONSTRAINT spend_requests_approval_fk FOREIGN KEY (approval_id) REFERENCES approvals(id)`
  yield* sql`ALTER TABLE spend_requests DROP COLUMN approval, DROP COLUMN approval_expires_at`
})
