import { type AuthorizationInputs, Card, CardAuthorization, CardAuthorizationsRepo } from "@svc/domain"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { APPROVAL_PROGRESS_OF_A, DECIDED_BY_NAME_OF_A } from "../approvals/index.ts"
import { AccountRow, lockedAccount, postingCtes } from "../ledger/index.ts"
import { decodeFirst, decodeRows, orUnavailable, SafeIntegerColumn } from "../shared/index.ts"
import { IntentRow, toIntent } from "./CheckoutIntentsRepoPg.ts"

const Row = Schema.Struct({
  ...CardAuthorization.fields,
  amount: SafeIntegerColumn,
  heldAmount: SafeIntegerColumn
})

const COLUMNS =
  "token, card_token, team_id, mode, intent_id, status, decline_reason, amount, currency, merchant_descriptor, " +
  "merchant_mcc, merchant_country, hold_transaction_id, held_amount, created_at, updated_at"

/** The stored decision of a `lock_card_authorization` row (migration 0017). */
const DecidedRow = Schema.Struct({
  status: CardAuthorization.fields.status,
  declineReason: CardAuthorization.fields.declineReason
})

/**
 * The columns of a wide row named `prefix_*` (read as `prefixName`), as a row of their own without the prefix. Which
 * columns those are is worked out from the first row read: the function's columns never change.
 */
const part = (prefix: string) => {
  let columns: ReadonlyArray<readonly [column: string, field: string]> | undefined
  return (row: Readonly<Record<string, unknown>>): Record<string, unknown> => {
    columns ??= Object.keys(row).flatMap((name) => {
      const rest = name.slice(prefix.length)
      return name.startsWith(prefix) && /^[A-Z]/u.test(rest)
        ? [[name, `${rest.charAt(0).toLowerCase()}${rest.slice(1)}`] as const]
        : []
    })
    const fields: Record<string, unknown> = {}
    for (const [column, field] of columns) fields[field] = row[column]
    return fields
  }
}

const decidedPart = part("decided")
const cardPart = part("card")
const intentPart = part("intent")
const accountPart = part("account")

/** CardAuthorizationsRepo on Postgres, keyed by the issuer's token: a second decision of a token stores nothing. */
export const CardAuthorizationsRepoPg = Layer.effect(
  CardAuthorizationsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(COLUMNS)
    const progressOfA = sql.unsafe(APPROVAL_PROGRESS_OF_A)
    const deciderOfA = sql.unsafe(DECIDED_BY_NAME_OF_A)
    const operation = "cardAuthorizations.lockForDecision"
    return CardAuthorizationsRepo.of({
      find: (token) =>
        sql`SELECT ${columns} FROM card_authorizations WHERE token = ${token}`.pipe(
          orUnavailable("cardAuthorizations.find"),
          Effect.flatMap(decodeFirst(Row, "cardAuthorizations.find"))
        ),
      lockForDecision: (token, cardToken) =>
        Effect.gen(function* () {
          const rows = yield* sql`SELECT * FROM lock_card_authorization(${token}, ${cardToken})`
          const first = rows[0]
          if (first === undefined) return yield* Effect.die(new Error("lock_card_authorization answered no row"))
          if (first.decidedStatus !== null) {
            const [decision] = yield* decodeRows(DecidedRow, operation)([decidedPart(first)])
            if (decision !== undefined) return { _tag: "Decided", decision } satisfies AuthorizationInputs
          }
          if (first.cardId === null) return { _tag: "NoCard" } satisfies AuthorizationInputs
          const [card] = yield* decodeRows(Card, operation)([cardPart(first)])
          const intentRow = intentPart(first)
          // The lock answers the intent's approval without its quorum and decider's name; a decided approval's steps
          // and decider never change.
          const [progress] =
            intentRow.approvalId === null || intentRow.approvalId === undefined
              ? []
              : yield* sql`SELECT ${progressOfA} AS approval_progress, ${deciderOfA} AS approval_decided_by_name
                  FROM approvals a WHERE a.id = ${intentRow.approvalId}`
          const [intent] = yield* decodeRows(
            IntentRow,
            operation
          )([
            {
              ...intentRow,
              approvalProgress: progress?.approvalProgress ?? null,
              approvalDecidedByName: progress?.approvalDecidedByName ?? null
            }
          ])
          const accounts = yield* decodeRows(AccountRow, operation)(rows.map(accountPart))
          // One row decodes into one of each.
          if (card === undefined || intent === undefined) return yield* Effect.die(new Error("no card decoded"))
          return {
            _tag: "Card",
            card,
            intent: toIntent(intent),
            accounts: accounts.map(lockedAccount)
          } satisfies AuthorizationInputs
        }).pipe(orUnavailable(operation)),
      insertDecision: ({ authorization: a, hold, events }) =>
        Effect.suspend(() => {
          const writes = [
            sql`card_authorization AS (
              INSERT INTO card_authorizations ${sql.insert({
                token: a.token,
                card_token: a.cardToken,
                team_id: a.teamId,
                mode: a.mode,
                intent_id: a.intentId,
                status: a.status,
                decline_reason: a.declineReason,
                amount: a.amount,
                currency: a.currency,
                merchant_descriptor: a.merchantDescriptor,
                merchant_mcc: a.merchantMcc,
                merchant_country: a.merchantCountry,
                hold_transaction_id: a.holdTransactionId,
                held_amount: a.heldAmount,
                created_at: a.createdAt,
                updated_at: a.updatedAt
              })} ON CONFLICT (token) DO NOTHING RETURNING intent_id)`,
            ...(hold === null
              ? []
              : [
                  postingCtes(sql, [hold], "fail", "card_authorization"),
                  sql`intent_authorized AS (
                    UPDATE checkout_intents i
                    SET status = 'authorized', authorized_amount = ${a.heldAmount}, updated_at = ${a.createdAt}
                    FROM card_authorization d WHERE i.id = d.intent_id AND i.status = 'approved' RETURNING i.id)`
                ]),
            ...(events.length === 0
              ? []
              : [
                  sql`outbox AS (
                    INSERT INTO outbox_events (id, team_id, mode, type, data, created_at)
                    SELECT e.id, e.team_id, e.mode, e.type, e.data, e.created_at
                    FROM jsonb_to_recordset(${JSON.stringify(
                      events.map((e) => ({
                        id: e.id,
                        team_id: e.teamId,
                        mode: e.mode,
                        type: e.type,
                        data: e.data,
                        created_at: e.createdAt
                      }))
                    )}::jsonb) AS e(id uuid, team_id uuid, mode text, type text, data jsonb, created_at timestamptz)
                    WHERE EXISTS (SELECT 1 FROM card_authorization))`
                ])
          ]
          return sql<{ inserted: boolean; unmoved: boolean }>`
            WITH ${sql.csv(writes)}
            SELECT EXISTS (SELECT 1 FROM card_authorization) AS inserted,
              ${hold === null ? sql`false` : sql`NOT EXISTS (SELECT 1 FROM intent_authorized)`} AS unmoved`
        }).pipe(
          orUnavailable("cardAuthorizations.insertDecision"),
          Effect.flatMap(([row]) => {
            const inserted = row?.inserted === true
            // The intent was checked approved under its lock.
            if (inserted && row?.unmoved === true)
              return Effect.die(new Error(`intent ${a.intentId} changed under its lock`))
            return Effect.succeed(inserted)
          })
        ),
      update: (token, from, u) =>
        sql`UPDATE card_authorizations
            SET status = ${u.status}, held_amount = ${u.heldAmount}, hold_transaction_id = ${u.holdTransactionId},
                updated_at = ${u.updatedAt}
            WHERE token = ${token} AND status IN ${sql.in(from)}
            RETURNING ${columns}`.pipe(
          orUnavailable("cardAuthorizations.update"),
          Effect.flatMap(decodeFirst(Row, "cardAuthorizations.update"))
        )
    })
  })
)
