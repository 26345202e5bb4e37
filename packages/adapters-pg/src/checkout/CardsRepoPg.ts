import { Card, CardsRepo } from "@svc/domain"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, orUnavailable } from "../shared/index.ts"

const COLUMNS =
  "id, team_id, mode, intent_id, token, status, last4, brand, exp_month, exp_year, number_hash, created_at, updated_at"

/**
 * CardsRepo on Postgres: one card per intent (a unique intent column), no column for a number or CVC, and a closed
 * card stays closed.
 */
export const CardsRepoPg = Layer.effect(
  CardsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(COLUMNS)
    return CardsRepo.of({
      insert: (card) =>
        sql`INSERT INTO checkout_cards ${sql.insert({
          id: card.id,
          team_id: card.teamId,
          mode: card.mode,
          intent_id: card.intentId,
          token: card.token,
          status: card.status,
          last4: card.last4,
          brand: card.brand,
          exp_month: card.expMonth,
          exp_year: card.expYear,
          number_hash: card.numberHash,
          created_at: card.createdAt,
          updated_at: card.updatedAt
        })} ON CONFLICT DO NOTHING RETURNING 1 AS inserted`.pipe(
          Effect.map((rows) => rows.length > 0),
          orUnavailable("cards.insert")
        ),
      findByToken: (token) =>
        sql`SELECT ${columns} FROM checkout_cards WHERE token = ${token}`.pipe(
          orUnavailable("cards.findByToken"),
          Effect.flatMap(decodeFirst(Card, "cards.findByToken"))
        ),
      findById: (teamId, mode, id) =>
        sql`SELECT ${columns} FROM checkout_cards WHERE id = ${id} AND team_id = ${teamId} AND mode = ${mode}`.pipe(
          orUnavailable("cards.findById"),
          Effect.flatMap(decodeFirst(Card, "cards.findById"))
        ),
      findByIntent: (intentId) =>
        sql`SELECT ${columns} FROM checkout_cards WHERE intent_id = ${intentId}`.pipe(
          orUnavailable("cards.findByIntent"),
          Effect.flatMap(decodeFirst(Card, "cards.findByIntent"))
        ),
      setStatus: (token, status, updatedAt) =>
        sql`UPDATE checkout_cards
            SET status = CASE status WHEN 'closed' THEN status ELSE ${status} END,
                updated_at = CASE status WHEN 'closed' THEN updated_at ELSE ${updatedAt}::timestamptz END
            WHERE token = ${token}
            RETURNING ${columns}`.pipe(
          orUnavailable("cards.setStatus"),
          Effect.flatMap(decodeFirst(Card, "cards.setStatus"))
        )
    })
  })
)
