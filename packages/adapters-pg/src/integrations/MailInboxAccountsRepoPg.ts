import { InboxAccountsRepo, MailInboxAccount } from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeRows, orUnavailable } from "../shared/index.ts"

const COLUMNS =
  "id, team_id, provider, email, access_token, refresh_token, expires_at, status, last_error, connected_by, " +
  "created_at, updated_at"

/** InboxAccountsRepo on Postgres; (team_id, email) is unique, so a reconnected address updates its row. */
export const MailInboxAccountsRepoPg = Layer.effect(
  InboxAccountsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(COLUMNS)
    return InboxAccountsRepo.of({
      upsert: (a) =>
        sql`INSERT INTO inbox_accounts ${sql.insert({
          id: a.id,
          team_id: a.teamId,
          provider: a.provider,
          email: a.email,
          access_token: a.accessToken,
          refresh_token: a.refreshToken,
          expires_at: a.expiresAt,
          status: a.status,
          last_error: a.lastError,
          connected_by: a.connectedBy,
          created_at: a.createdAt,
          updated_at: a.updatedAt
        })}
        ON CONFLICT (team_id, email) DO UPDATE SET
          provider = EXCLUDED.provider,
          access_token = EXCLUDED.access_token,
          refresh_token = EXCLUDED.refresh_token,
          expires_at = EXCLUDED.expires_at,
          status = EXCLUDED.status,
          last_error = EXCLUDED.last_error,
          connected_by = EXCLUDED.connected_by,
          updated_at = EXCLUDED.updated_at
        RETURNING ${columns}`.pipe(
          orUnavailable("inboxAccounts.upsert"),
          Effect.flatMap(decodeFirst(MailInboxAccount, "inboxAccounts.upsert")),
          Effect.flatMap((row) => Effect.orDie(Effect.fromOption(row)))
        ),
      find: (id) =>
        sql`SELECT ${columns} FROM inbox_accounts WHERE id = ${id}`.pipe(
          orUnavailable("inboxAccounts.find"),
          Effect.flatMap(decodeFirst(MailInboxAccount, "inboxAccounts.find"))
        ),
      list: (teamId, page) =>
        sql`SELECT ${columns} FROM inbox_accounts WHERE ${sql.and([
          sql`team_id = ${teamId}`,
          ...Option.match(page.after, {
            onNone: () => [],
            onSome: (p) => [sql`(created_at, id) < (${p.createdAt}::timestamptz, ${p.id}::uuid)`]
          })
        ])} ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
          orUnavailable("inboxAccounts.list"),
          Effect.flatMap(decodeRows(MailInboxAccount, "inboxAccounts.list"))
        ),
      remove: (id) =>
        sql`DELETE FROM inbox_accounts WHERE id = ${id} RETURNING ${columns}`.pipe(
          orUnavailable("inboxAccounts.remove"),
          Effect.flatMap(decodeFirst(MailInboxAccount, "inboxAccounts.remove"))
        )
    })
  })
)
