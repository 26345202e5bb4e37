import { assert, layer } from "@effect/vitest"
import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { CryptoDestinations, CryptoQuotes, CryptoQuotesRepo } from "@svc/domain"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { ADDRESSES, cryptoOver, cryptoTeam } from "./CryptoSetup.ts"

const refused = <A, E, R>(statement: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.flip(statement), (e) => (e as { readonly _tag: string })._tag)

layer(cryptoOver(PortsPg).pipe(Layer.provideMerge(TestDatabase)), { timeout: "60 seconds" })(
  "crypto tables hold their rules whatever writes to them (migration 0031)",
  (it) => {
    it.effect("a destination is never edited nor deleted; only a first removal changes it", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const { owner } = yield* cryptoTeam()
        const d = yield* CryptoDestinations.use((s) =>
          s.add(owner, { name: "Wallet", network: "ethereum", asset: "USDC", address: ADDRESSES.evm })
        )
        assert.strictEqual(
          yield* refused(sql`UPDATE crypto_destinations SET address = ${ADDRESSES.otherEvm} WHERE id = ${d.id}`),
          "SqlError"
        )
        assert.strictEqual(
          yield* refused(sql`UPDATE crypto_destinations SET name = 'x' WHERE id = ${d.id}`),
          "SqlError"
        )
        assert.strictEqual(yield* refused(sql`DELETE FROM crypto_destinations WHERE id = ${d.id}`), "SqlError")
        yield* sql`UPDATE crypto_destinations SET removed_at = now() WHERE id = ${d.id}`
        assert.strictEqual(
          yield* refused(sql`UPDATE crypto_destinations SET removed_at = NULL WHERE id = ${d.id}`),
          "SqlError"
        )
        assert.strictEqual(
          yield* refused(
            sql`INSERT INTO crypto_destinations (id, team_id, mode, name, network, asset, address, created_by, created_at)
                VALUES (${crypto.randomUUID()}, ${owner.teamId}, 'live', 'Bad', 'solana', 'USDC', ${ADDRESSES.evm},
                        ${owner.userId}, now())`
          ),
          "SqlError",
          "an EVM address is not stored for solana"
        )
      })
    )

    it.effect("a quote changes only by its single use, and binds a destination of its own team and mode", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const acme = yield* cryptoTeam("Acme")
        const globex = yield* cryptoTeam("Globex")
        const d = yield* CryptoDestinations.use((s) =>
          s.add(acme.owner, { name: "Wallet", network: "base", asset: "USDC", address: ADDRESSES.evm })
        )
        const quote = yield* CryptoQuotes.use((q) =>
          q.create(acme.liveAgent, {
            amount: 1_000,
            currency: "USD",
            asset: "USDC",
            network: "base",
            destinationId: d.id
          })
        )
        assert.strictEqual(
          yield* refused(sql`UPDATE crypto_quotes SET amount = 2000 WHERE id = ${quote.id}`),
          "SqlError"
        )
        assert.strictEqual(
          yield* refused(sql`UPDATE crypto_quotes SET expires_at = now() + interval '1 day' WHERE id = ${quote.id}`),
          "SqlError"
        )
        assert.strictEqual(yield* refused(sql`DELETE FROM crypto_quotes WHERE id = ${quote.id}`), "SqlError")
        yield* CryptoQuotesRepo.use((r) => r.markUsed(quote.id, crypto.randomUUID(), "2026-11-27T10:00:00.000Z"))
        assert.strictEqual(
          yield* refused(sql`UPDATE crypto_quotes SET payout_id = ${crypto.randomUUID()} WHERE id = ${quote.id}`),
          "SqlError",
          "a used quote is final"
        )
        const insert = (teamId: string, mode: string, amount: number) =>
          sql`INSERT INTO crypto_quotes ${sql.insert({
            id: crypto.randomUUID(),
            team_id: teamId,
            mode,
            spending_key_id: quote.spendingKeyId,
            destination_id: d.id,
            network: "base",
            asset: "USDC",
            address: ADDRESSES.evm,
            amount,
            currency: "USD",
            service_fee: 100,
            network_fee: 5,
            amount_delivered: 895,
            token_amount: "8950000",
            decimals: 6,
            expires_at: quote.expiresAt,
            created_at: quote.createdAt
          })}`
        assert.strictEqual(
          yield* refused(insert(globex.team.id, "live", 1_000)),
          "SqlError",
          "another team's destination"
        )
        assert.strictEqual(yield* refused(insert(acme.team.id, "test", 1_000)), "SqlError", "the other mode's")
        assert.strictEqual(
          yield* refused(insert(acme.team.id, "live", 999)),
          "SqlError",
          "the fees and delivery sum up"
        )
        yield* insert(acme.team.id, "live", 1_000)
      })
    )
  }
)
