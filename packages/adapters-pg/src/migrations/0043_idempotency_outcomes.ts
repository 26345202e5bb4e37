import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * An idempotency key's answer is either the response HTTP rendered (status, headers, body: every row before this one,
 * and every route the `Idempotent` middleware stores) or the outcome a domain stored with its work, in its own JSON
 * form, which the HTTP adapter renders on each answer (`outcome`, ADR 0047). Exactly one of the two forms is set.
 * Existing rows keep their rendered responses and replay as before.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE idempotency_responses
      ADD COLUMN outcome jsonb,
      ALTER COLUMN status DROP NOT NULL,
      ALTER COLUMN headers DROP NOT NULL,
      ALTER COLUMN body DROP NOT NULL,
      ADD CONSTRAINT idempotency_responses_one_form CHECK (
        CASE WHEN outcome IS NULL
          THEN status IS NOT NULL AND headers IS NOT NULL AND body IS NOT NULL
          ELSE status IS NULL AND headers IS NULL AND body IS NULL
        END
      )`
})
