import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** Documents: a team's uploaded files' metadata; the content lives in the file store at `path`. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE documents (
      id uuid PRIMARY KEY,
      team_id uuid NOT NULL REFERENCES teams(id),
      title text NOT NULL,
      name text NOT NULL,
      content_type text NOT NULL,
      size integer NOT NULL CHECK (size >= 0),
      path text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX documents_team_created ON documents (team_id, created_at DESC, id DESC)`
})
