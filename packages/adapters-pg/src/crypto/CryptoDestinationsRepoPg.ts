import { CryptoDestination, CryptoDestinationsRepo } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeRows, orUnavailable } from "../shared/index.ts"

const COLUMNS = "id, team_id, mode, name, network, asset, address, created_by, created_at, removed_at"

/** CryptoDestinationsRepo on Postgres; a trigger refuses any change but a first removal, and any deletion. */
export const CryptoDestinationsRepoPg = Layer.effect(
  CryptoDestinationsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(COLUMNS)
    return CryptoDestinationsRepo.of({
      insert: (d) =>
        sql`INSERT INTO crypto_destinations ${sql.insert({
          id: d.id,
          team_id: d.teamId,
          mode: d.mode,
          name: d.name,
          network: d.network,
          asset: d.asset,
          address: d.address,
          created_by: d.createdBy,
          created_at: d.createdAt,
          removed_at: d.removedAt
        })}`.pipe(Effect.asVoid, orUnavailable("cryptoDestinations.insert")),
      find: (id) =>
        sql`SELECT ${columns} FROM crypto_destinations WHERE id = ${id}`.pipe(
          orUnavailable("cryptoDestinations.find"),
          Effect.flatMap(decodeFirst(CryptoDestination, "cryptoDestinations.find"))
        ),
      list: (teamId, mode, page) =>
        sql`SELECT ${columns} FROM crypto_destinations WHERE ${sql.and([
          sql`team_id = ${teamId}`,
          sql`mode = ${mode}`,
          sql`removed_at IS NULL`,
          ...Option.match(page.after, {
            onNone: () => [],
            onSome: (p) => [sql`(created_at, id) < (${p.createdAt}::timestamptz, ${p.id}::uuid)`]
          })
        ])} ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
          orUnavailable("cryptoDestinations.list"),
          Effect.flatMap(decodeRows(CryptoDestination, "cryptoDestinations.list"))
        ),
      remove: (id, removedAt) =>
        sql`UPDATE crypto_destinations SET removed_at = ${removedAt}
            WHERE id = ${id} AND removed_at IS NULL
            RETURNING ${columns}`.pipe(
          orUnavailable("cryptoDestinations.remove"),
          Effect.flatMap(decodeFirst(CryptoDestination, "cryptoDestinations.remove"))
        )
    })
  })
)
