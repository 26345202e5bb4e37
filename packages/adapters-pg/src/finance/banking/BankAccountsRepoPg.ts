import { BankAccount, type BankAccountChanges, BankAccountsRepo } from "@svc/domain"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeRows, orUnavailable, SafeIntegerColumn } from "../../shared/index.ts"

const BankAccountRow = Schema.Struct({
  ...BankAccount.fields,
  balanceMinor: SafeIntegerColumn,
  baseBalanceMinor: Schema.NullOr(SafeIntegerColumn)
})

const COLUMNS = `id, team_id, name, type, currency, balance_minor, base_currency, base_balance_minor, enabled, manual,
  connection_id, external_id, created_at, updated_at`

const changedColumns = (changes: BankAccountChanges): Record<string, unknown> => {
  const columns: Record<string, unknown> = { updated_at: changes.updatedAt }
  if (changes.name !== undefined) columns.name = changes.name
  if (changes.type !== undefined) columns.type = changes.type
  if (changes.balanceMinor !== undefined) columns.balance_minor = changes.balanceMinor
  if (changes.baseCurrency !== undefined) columns.base_currency = changes.baseCurrency
  if (changes.baseBalanceMinor !== undefined) columns.base_balance_minor = changes.baseBalanceMinor
  if (changes.enabled !== undefined) columns.enabled = changes.enabled
  return columns
}

/** BankAccountsRepo on Postgres. */
export const BankAccountsRepoPg = Layer.effect(
  BankAccountsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(COLUMNS)
    return BankAccountsRepo.of({
      insert: (a) =>
        sql`
          INSERT INTO bank_accounts (id, team_id, name, type, currency, balance_minor, base_currency, base_balance_minor,
                                     enabled, manual, connection_id, external_id, created_at, updated_at)
          VALUES (${a.id}, ${a.teamId}, ${a.name}, ${a.type}, ${a.currency}, ${a.balanceMinor}, ${a.baseCurrency},
                  ${a.baseBalanceMinor}, ${a.enabled}, ${a.manual}, ${a.connectionId}, ${a.externalId}, ${a.createdAt},
                  ${a.updatedAt})`.pipe(Effect.asVoid, orUnavailable("bankAccounts.insert")),
      list: (teamId, filter) =>
        sql`
          SELECT ${columns} FROM bank_accounts
          WHERE team_id = ${teamId}
            AND (${filter.enabled ?? null}::boolean IS NULL OR enabled = ${filter.enabled ?? null})
            AND (${filter.manual ?? null}::boolean IS NULL OR manual = ${filter.manual ?? null})
            AND (${filter.type ?? null}::text IS NULL OR type = ${filter.type ?? null})
          ORDER BY created_at, id`.pipe(
          orUnavailable("bankAccounts.list"),
          Effect.flatMap(decodeRows(BankAccountRow, "bankAccounts.list"))
        ),
      find: (teamId, id) =>
        sql`SELECT ${columns} FROM bank_accounts WHERE team_id = ${teamId} AND id = ${id}`.pipe(
          orUnavailable("bankAccounts.find"),
          Effect.flatMap(decodeFirst(BankAccountRow, "bankAccounts.find"))
        ),
      findByExternalId: (teamId, connectionId, externalId) =>
        sql`SELECT ${columns} FROM bank_accounts
            WHERE team_id = ${teamId} AND connection_id = ${connectionId} AND external_id = ${externalId}`.pipe(
          orUnavailable("bankAccounts.findByExternalId"),
          Effect.flatMap(decodeFirst(BankAccountRow, "bankAccounts.findByExternalId"))
        ),
      update: (teamId, id, changes) =>
        sql`UPDATE bank_accounts SET ${sql.update(changedColumns(changes))}
            WHERE team_id = ${teamId} AND id = ${id} RETURNING ${columns}`.pipe(
          orUnavailable("bankAccounts.update"),
          Effect.flatMap(decodeFirst(BankAccountRow, "bankAccounts.update"))
        ),
      remove: (teamId, id) =>
        sql`DELETE FROM bank_accounts WHERE team_id = ${teamId} AND id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          orUnavailable("bankAccounts.remove")
        )
    })
  })
)
