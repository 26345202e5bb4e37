import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * A customer's description and tags (the team's tags, linked by (team, id) so none crosses teams; deleting the customer
 * or the tag removes the link). Counting a customer's invoices and projects reads the indexes on their customer.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE customers ADD COLUMN description text`
  yield* sql`ALTER TABLE customers ADD CONSTRAINT customers_team_id_key UNIQUE (team_id, id)`
  yield* sql`
    CREATE TABLE customer_tags (
      team_id uuid NOT NULL,
      customer_id uuid NOT NULL,
      tag_id uuid NOT NULL,
      PRIMARY KEY (customer_id, tag_id),
      FOREIGN KEY (team_id, customer_id) REFERENCES customers (team_id, id) ON DELETE CASCADE,
      FOREIGN KEY (team_id, tag_id) REFERENCES tags (team_id, id) ON DELETE CASCADE
    )`
  yield* sql`CREATE INDEX customer_tags_tag_idx ON customer_tags (tag_id)`
  yield* sql`CREATE INDEX invoices_customer_idx ON invoices (customer_id) WHERE customer_id IS NOT NULL`
  yield* sql`CREATE INDEX tracker_projects_customer_idx ON tracker_projects (customer_id) WHERE customer_id IS NOT NULL`
})
