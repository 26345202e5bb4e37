import { InstallNoncesRepo } from "@svc/domain"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { deletedCount, orUnavailable } from "../shared/index.ts"

/**
 * InstallNoncesRepo on Postgres: consuming is one `INSERT ... ON CONFLICT DO NOTHING` on the (purpose, nonce) primary
 * key, so of concurrent consumers exactly one inserts the row.
 */
export const InstallNoncesRepoPg = Layer.effect(
  InstallNoncesRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return InstallNoncesRepo.of({
      consume: (nonce) =>
        sql`
          INSERT INTO install_nonces (purpose, nonce, keep_until, used_at)
          VALUES (${nonce.purpose}, ${nonce.nonce}, ${nonce.keepUntil}, ${nonce.usedAt})
          ON CONFLICT DO NOTHING
          RETURNING 1 AS consumed`.pipe(
          Effect.map((rows) => rows.length === 1),
          orUnavailable("installNonces.consume")
        ),
      purgeBefore: (cutoff) =>
        deletedCount(sql, sql`DELETE FROM install_nonces WHERE keep_until < ${cutoff}`).pipe(
          orUnavailable("installNonces.purgeBefore")
        )
    })
  })
)
