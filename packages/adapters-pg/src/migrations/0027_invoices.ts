import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The outbox event types a member is told about, as of this migration (the domain's `NOTIFYING_EVENTS`; a test checks
 * they agree): 0023's list and `invoice.paid`.
 */
const NOTIFYING_TYPES = [
  "spend_request.approval_required",
  "transfer.approval_required",
  "checkout_intent.approval_required",
  "webhook_endpoint.disabled",
  "bank_connection.disconnected",
  "transfer.created",
  "invoice.paid"
]

/**
 * Invoices: a team's invoices (line items as JSON, amounts in minor units), unique by (team, number) and by public
 * token, and the per-team counter their numbers come from, incremented in the creating transaction (the row stays locked
 * until it commits, so concurrent creations take consecutive numbers and a rollback leaves no gap). A paid invoice
 * links the business-finance transaction its payment was recorded as. The notification trigger learns
 * `invoice.paid`.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE invoice_number_counters (
      team_id uuid PRIMARY KEY REFERENCES teams(id),
      last_number bigint NOT NULL CHECK (last_number > 0)
    )`
  yield* sql`
    CREATE TABLE invoices (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      invoice_number text NOT NULL,
      status text NOT NULL CHECK (status IN ('draft', 'scheduled', 'unpaid', 'paid', 'canceled')),
      customer_id uuid REFERENCES customers(id) ON DELETE SET NULL,
      customer_name text NOT NULL,
      currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
      issue_date date NOT NULL,
      due_date date NOT NULL CHECK (due_date >= issue_date),
      line_items jsonb NOT NULL,
      discount_minor bigint NOT NULL CHECK (discount_minor >= 0),
      note text,
      token text NOT NULL UNIQUE,
      scheduled_at timestamptz,
      sent_at timestamptz,
      paid_at timestamptz,
      canceled_at timestamptz,
      payment_intent_id text,
      paid_transaction_id uuid REFERENCES transactions(id) ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL,
      CONSTRAINT invoices_number_key UNIQUE (team_id, invoice_number),
      CHECK (status <> 'scheduled' OR scheduled_at IS NOT NULL),
      CHECK ((status = 'paid') = (paid_at IS NOT NULL))
    )`
  yield* sql`CREATE INDEX invoices_team_idx ON invoices (team_id, created_at DESC, id DESC)`
  yield* sql`
    CREATE OR REPLACE FUNCTION outbox_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO notification_queue (event_id, team_id, mode, type, data, created_at)
      SELECT e.id, e.team_id, e.mode, e.type, e.data, e.created_at FROM new_events e
      WHERE e.type IN (${sql.unsafe(NOTIFYING_TYPES.map((t) => `'${t}'`).join(", "))});
      RETURN NULL;
    END $$`
})
