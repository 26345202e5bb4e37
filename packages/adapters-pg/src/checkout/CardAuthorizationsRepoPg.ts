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
  heldAmount: SafeIntegerColumn,
  refundedAmount: SafeIntegerColumn
})

const COLUMNS =
  "token, card_token, team_id, mode, intent_id, status, decline_reason, amount, currency, merchant_descriptor, " +
  "merchant_mcc, merchant_country, hold_transaction_id, held_amount, refunded_amount, created_at, updated_at"

/** The stored decision of a token, read as `decided_*`. */
const DecidedRow = Schema.Struct({
  status: CardAuthorization.fields.status,
  declineReason: CardAuthorization.fields.declineReason
})

/**
 * What an authorization is decided on, in one row per account: the token's stored decision (`decided_*`), else the
 * card (`card_*`) and its intent with its approval (`intent_*`), and the intent's spend account and the team's
 * settlement account of the intent's currency (`account_*`) in id order. One row of nulls answers a card unknown.
 * Parameters: `$1` the authorization's token, `$2` the card's. Exported for the benchmark's database-only reference.
 */
export const CARD_DECISION_INPUTS_SQL = `
  SELECT d.status AS decided_status, d.decline_reason AS decided_decline_reason,
    c.id AS card_id, c.team_id AS card_team_id, c.mode AS card_mode, c.intent_id AS card_intent_id,
    c.token AS card_token, c.status AS card_status, c.last4 AS card_last4, c.brand AS card_brand,
    c.exp_month AS card_exp_month, c.exp_year AS card_exp_year, c.number_hash AS card_number_hash,
    c.created_at AS card_created_at, c.updated_at AS card_updated_at,
    i.id AS intent_id, i.team_id AS intent_team_id, i.mode AS intent_mode, i.status AS intent_status,
    i.amount AS intent_amount, i.currency AS intent_currency,
    jsonb_build_object('name', i.merchant_name, 'url', i.merchant_url, 'mcc', i.merchant_mcc,
                       'country', i.merchant_country) AS intent_merchant,
    i.purpose AS intent_purpose, i.account_id AS intent_account_id, i.spending_key_id AS intent_spending_key_id,
    i.decision AS intent_decision, i.card AS intent_card, i.authorized_amount AS intent_authorized_amount,
    i.captured_amount AS intent_captured_amount, i.expires_at AS intent_expires_at,
    i.created_at AS intent_created_at, i.updated_at AS intent_updated_at,
    a.id AS intent_approval_id, a.status AS intent_approval_status, a.expires_at AS intent_approval_expires_at,
    a.decided_at AS intent_approval_decided_at, a.decided_by AS intent_approval_decided_by,
    a.note AS intent_approval_note, ${APPROVAL_PROGRESS_OF_A} AS intent_approval_progress,
    ${DECIDED_BY_NAME_OF_A} AS intent_approval_decided_by_name,
    l.id AS account_id, l.team_id AS account_team_id, l.mode AS account_mode, l.kind AS account_kind,
    l.name AS account_name, l.currency::text AS account_currency, l.posted_sum AS account_posted_sum,
    l.pending_out AS account_pending_out, l.pending_in AS account_pending_in, l.created_at AS account_created_at
  FROM (VALUES (1)) AS one(n)
  LEFT JOIN card_authorizations d ON d.token = $1
  LEFT JOIN checkout_cards c ON d.token IS NULL AND c.token = $2
  LEFT JOIN checkout_intents i ON i.id = c.intent_id
  LEFT JOIN approvals a ON a.id = i.approval_id
  LEFT JOIN LATERAL (
    SELECT s.id FROM ledger_accounts s
    WHERE s.team_id = i.team_id AND s.mode = i.mode AND s.kind = 'settlement' AND s.currency = i.currency
    ORDER BY s.created_at, s.id LIMIT 1
  ) settlement ON true
  LEFT JOIN ledger_accounts l ON l.id IN (i.account_id, settlement.id)
  ORDER BY l.id`

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
    const operation = "cardAuthorizations.readForDecision"
    return CardAuthorizationsRepo.of({
      find: (token) =>
        sql`SELECT ${columns} FROM card_authorizations WHERE token = ${token}`.pipe(
          orUnavailable("cardAuthorizations.find"),
          Effect.flatMap(decodeFirst(Row, "cardAuthorizations.find"))
        ),
      readForDecision: (token, cardToken) =>
        Effect.gen(function* () {
          const rows = yield* sql.unsafe<Record<string, unknown>>(CARD_DECISION_INPUTS_SQL, [token, cardToken])
          const first = rows[0]
          if (first === undefined) return yield* Effect.die(new Error("the decision's reading answered no row"))
          if (first.decidedStatus !== null) {
            const [decision] = yield* decodeRows(DecidedRow, operation)([decidedPart(first)])
            if (decision !== undefined) return { _tag: "Decided", decision } satisfies AuthorizationInputs
          }
          if (first.cardId === null) return { _tag: "NoCard" } satisfies AuthorizationInputs
          const [card] = yield* decodeRows(Card, operation)([cardPart(first)])
          const [intent] = yield* decodeRows(IntentRow, operation)([intentPart(first)])
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
          // An approval is written only if what it was decided on still holds, checked under the locks it takes.
          const stillHolds =
            hold === null ? sql`true` : sql`card_approval_holds(${a.token}, ${a.cardToken}, ${a.heldAmount})`
          const writes = [
            sql`card_authorization AS (
              INSERT INTO card_authorizations (${columns})
              SELECT ${columns} FROM jsonb_populate_record(NULL::card_authorizations, ${JSON.stringify({
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
                refunded_amount: a.refundedAmount,
                created_at: a.createdAt,
                updated_at: a.updatedAt
              })}::jsonb)
              WHERE ${stillHolds}
              ON CONFLICT (token) DO NOTHING RETURNING intent_id)`,
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
      addRefund: (token, amount, updatedAt) =>
        sql`UPDATE card_authorizations
            SET refunded_amount = refunded_amount + ${amount}, updated_at = ${updatedAt}
            WHERE token = ${token} AND status = 'cleared'
            RETURNING ${columns}`.pipe(
          orUnavailable("cardAuthorizations.addRefund"),
          Effect.flatMap(decodeFirst(Row, "cardAuthorizations.addRefund"))
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
