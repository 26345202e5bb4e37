import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { auditContract } from "./AuditContract.ts"

auditContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)), (teamId, seq, content, rehash) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql.withTransaction(
      Effect.gen(function* () {
        yield* sql`ALTER TABLE audit_entries DISABLE TRIGGER audit_entries_append_only`
        yield* rehash
          ? sql`UPDATE audit_entries SET content = ${content},
                  hash = encode(sha256(convert_to(prev_hash || ${content}, 'UTF8')), 'hex')
                WHERE team_id = ${teamId} AND seq = ${seq}`
          : sql`UPDATE audit_entries SET content = ${content} WHERE team_id = ${teamId} AND seq = ${seq}`
        yield* sql`ALTER TABLE audit_entries ENABLE TRIGGER audit_entries_append_only`
      })
    )
  })
)
