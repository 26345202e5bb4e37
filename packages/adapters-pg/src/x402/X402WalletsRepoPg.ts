import { Mode, TeamId, X402WalletsRepo } from "@svc/domain"
import { Effect, flow, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, orUnavailable } from "../shared/index.ts"

const Row = Schema.Struct({
  teamId: TeamId,
  mode: Mode,
  address: Schema.String,
  sealedKey: Schema.String,
  createdAt: Schema.String
})

/** X402WalletsRepo on Postgres: one row a team and mode; a concurrent first insert keeps the first. */
export const X402WalletsRepoPg = Layer.effect(
  X402WalletsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const find = (teamId: string, mode: string) =>
      sql`SELECT team_id, mode, address, sealed_key, created_at FROM x402_wallets
          WHERE team_id = ${teamId} AND mode = ${mode}`.pipe(
        orUnavailable("x402Wallets.find"),
        Effect.flatMap(decodeFirst(Row, "x402Wallets.find"))
      )
    return X402WalletsRepo.of({
      find,
      insert: (w) =>
        sql`INSERT INTO x402_wallets ${sql.insert({
          team_id: w.teamId,
          mode: w.mode,
          address: w.address,
          sealed_key: w.sealedKey,
          created_at: w.createdAt
        })} ON CONFLICT (team_id, mode) DO NOTHING`.pipe(
          orUnavailable("x402Wallets.insert"),
          Effect.flatMap(() => find(w.teamId, w.mode)),
          // Inserted or kept just above, and wallets are never deleted.
          Effect.flatMap(
            flow(Option.match({ onNone: () => Effect.die("x402 wallet vanished"), onSome: Effect.succeed }))
          )
        )
    })
  })
)
