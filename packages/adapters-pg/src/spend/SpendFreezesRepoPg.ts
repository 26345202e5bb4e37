import { type PersistenceUnavailable, SpendFreeze, SpendFreezesRepo } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeRows, orUnavailable } from "../shared/index.ts"

const COLUMNS = "id, team_id, spending_key_id, mode, reason, frozen_by, frozen_at, lifted_by, lifted_at"

/**
 * SpendFreezesRepo on Postgres; partial unique indexes keep one active freeze per team and per key, so of concurrent
 * freezes of one scope exactly one is stored.
 */
export const SpendFreezesRepoPg = Layer.effect(
  SpendFreezesRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(COLUMNS)
    const activeOf = (teamId: string, spendingKeyId: string | null) =>
      sql`SELECT ${columns} FROM spend_freezes
          WHERE team_id = ${teamId} AND lifted_at IS NULL
            AND ${spendingKeyId === null ? sql`spending_key_id IS NULL` : sql`spending_key_id = ${spendingKeyId}`}`.pipe(
        orUnavailable("spendFreezes.active"),
        Effect.flatMap(decodeFirst(SpendFreeze, "spendFreezes.active"))
      )
    const insert = (f: SpendFreeze): Effect.Effect<Option.Option<SpendFreeze>, PersistenceUnavailable> =>
      sql`INSERT INTO spend_freezes ${sql.insert({
        id: f.id,
        team_id: f.teamId,
        spending_key_id: f.spendingKeyId,
        mode: f.mode,
        reason: f.reason,
        frozen_by: f.frozenBy,
        frozen_at: f.frozenAt,
        lifted_by: f.liftedBy,
        lifted_at: f.liftedAt
      })} ON CONFLICT DO NOTHING RETURNING id`.pipe(
        orUnavailable("spendFreezes.insert"),
        Effect.flatMap((rows) =>
          rows.length > 0
            ? Effect.succeed(Option.none())
            : activeOf(f.teamId, f.spendingKeyId).pipe(
                // The freeze it lost to was lifted in the instant between: the scope is open again.
                Effect.flatMap((existing) => (Option.isSome(existing) ? Effect.succeed(existing) : insert(f)))
              )
        )
      )
    return SpendFreezesRepo.of({
      insert,
      lift: (teamId, spendingKeyId, liftedBy, liftedAt) =>
        sql`UPDATE spend_freezes SET lifted_by = ${liftedBy}, lifted_at = ${liftedAt}
            WHERE team_id = ${teamId} AND lifted_at IS NULL
              AND ${spendingKeyId === null ? sql`spending_key_id IS NULL` : sql`spending_key_id = ${spendingKeyId}`}
            RETURNING ${columns}`.pipe(
          orUnavailable("spendFreezes.lift"),
          Effect.flatMap(decodeFirst(SpendFreeze, "spendFreezes.lift"))
        ),
      active: (teamId) =>
        sql`SELECT ${columns} FROM spend_freezes WHERE team_id = ${teamId} AND lifted_at IS NULL
            ORDER BY spending_key_id NULLS FIRST`.pipe(
          orUnavailable("spendFreezes.active"),
          Effect.flatMap(decodeRows(SpendFreeze, "spendFreezes.active"))
        )
    })
  })
)
