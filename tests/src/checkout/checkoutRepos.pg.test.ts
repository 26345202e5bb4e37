import { assert, layer } from "@effect/vitest"
import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import {
  type Card,
  type CardAuthorization,
  CardAuthorizationsRepo,
  CardId,
  CardsRepo,
  type CheckoutIntent,
  CheckoutIntentId,
  CheckoutIntentsRepo,
  Ledger,
  LedgerTransactionId,
  movementPosting,
  planTransaction
} from "@svc/domain"
import { Effect, Layer, Option, Result } from "effect"
import { SqlClient } from "effect/sql"
import { domainOver, fundedAgent } from "../spend/SpendSetup.ts"

const ports = PortsPg.pipe(Layer.provideMerge(TestDatabase))

const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 0, minute)).toISOString()

const newIntent = (over: Partial<CheckoutIntent> = {}) =>
  Effect.gen(function* () {
    const { team, agent } = yield* fundedAgent({ funds: 10_000 })
    const intent: CheckoutIntent = {
      id: CheckoutIntentId.make(crypto.randomUUID()),
      teamId: team.id,
      mode: "test",
      status: "approved",
      amount: 2_500,
      currency: "USD",
      merchant: { name: "Acme Store", url: "https://acme.example", mcc: "5734", country: "US" },
      purpose: "a laptop bag",
      accountId: agent.accountId!,
      spendingKeyId: agent.keyId,
      decision: { outcome: "approved", reasons: [] },
      approval: null,
      card: null,
      authorizedAmount: 0,
      capturedAmount: null,
      expiresAt: at(60),
      createdAt: at(0),
      updatedAt: at(0),
      ...over
    }
    yield* CheckoutIntentsRepo.use((repo) => repo.insert(intent))
    return intent
  })

const cardOf = (intent: CheckoutIntent): Card => ({
  id: CardId.make(crypto.randomUUID()),
  teamId: intent.teamId,
  mode: intent.mode,
  intentId: intent.id,
  token: `card_${crypto.randomUUID()}`,
  status: "active",
  last4: "4242",
  brand: "visa",
  expMonth: 12,
  expYear: 2029,
  numberHash: "ab".repeat(32),
  createdAt: at(1),
  updatedAt: at(1)
})

layer(domainOver(ports).pipe(Layer.provideMerge(ports)), { timeout: "60 seconds" })(
  "checkout repositories on Postgres",
  (it) => {
    it.effect("an intent reads back as stored, and moves only from the statuses named", () =>
      Effect.gen(function* () {
        const repo = yield* CheckoutIntentsRepo
        const intent = yield* newIntent()
        assert.deepStrictEqual(yield* repo.find(intent.id), Option.some(intent))
        const card = cardOf(intent)
        const reference = { id: card.id, last4: "4242", brand: "visa", expMonth: 12, expYear: 2029 }
        const carded = yield* repo.transition(intent.id, ["approved"], {
          status: "approved",
          card: reference,
          updatedAt: at(1)
        })
        assert.deepStrictEqual(Option.getOrThrow(carded).card, reference)
        const authorized = { status: "authorized", authorizedAmount: 2_000, updatedAt: at(2) } as const
        assert.isTrue(Option.isNone(yield* repo.transition(intent.id, ["pending_approval"], authorized)))
        const moved = Option.getOrThrow(yield* repo.transition(intent.id, ["approved"], authorized))
        assert.deepStrictEqual(moved, {
          ...intent,
          card: reference,
          status: "authorized",
          authorizedAmount: 2_000,
          updatedAt: at(2)
        })
        const completed = { status: "completed", authorizedAmount: 0, capturedAmount: 1_900, updatedAt: at(3) } as const
        assert.strictEqual(
          Option.getOrThrow(yield* repo.transition(intent.id, ["authorized"], completed)).capturedAmount,
          1_900
        )
        assert.deepStrictEqual(Option.getOrThrow(yield* repo.lock(intent.id)).status, "completed")
      })
    )

    it.effect("the database refuses any change of an intent whose status is final", () =>
      Effect.gen(function* () {
        const repo = yield* CheckoutIntentsRepo
        const sql = yield* SqlClient.SqlClient
        for (const status of ["completed", "expired", "canceled", "denied"] as const) {
          const intent = yield* newIntent({ status, capturedAmount: status === "completed" ? 2_500 : null })
          for (const change of [
            sql`UPDATE checkout_intents SET status = 'approved' WHERE id = ${intent.id}`,
            sql`UPDATE checkout_intents SET captured_amount = 1, authorized_amount = 1 WHERE id = ${intent.id}`,
            sql`UPDATE checkout_intents SET card = NULL, updated_at = now() WHERE id = ${intent.id}`
          ]) {
            const refused = yield* Effect.flip(change)
            const cause = refused.reason.cause as { code?: string; message?: string }
            assert.strictEqual(cause.code, "23001", status)
            assert.match(cause.message ?? "", /is final/u)
          }
          const moved = yield* Effect.flip(
            repo.transition(intent.id, [status], { status: "approved", updatedAt: at(9) })
          )
          assert.strictEqual(moved._tag, "PersistenceUnavailable")
          assert.deepStrictEqual(yield* repo.find(intent.id), Option.some(intent))
        }
      })
    )

    it.effect("one card per intent; no second card is stored", () =>
      Effect.gen(function* () {
        const cards = yield* CardsRepo
        const intent = yield* newIntent()
        const card = cardOf(intent)
        assert.isTrue(yield* cards.insert(card))
        assert.isFalse(yield* cards.insert({ ...cardOf(intent) }))
        assert.deepStrictEqual(yield* cards.findByIntent(intent.id), Option.some(card))
        assert.deepStrictEqual(yield* cards.findByToken(card.token), Option.some(card))
        const closed = yield* cards.setStatus(card.token, "closed", at(5))
        assert.deepStrictEqual(closed, Option.some({ ...card, status: "closed" as const, updatedAt: at(5) }))
        assert.isTrue(Option.isNone(yield* cards.setStatus("card_unknown", "closed", at(5))))
      })
    )

    it.effect("a closed card stays closed whatever status is recorded after", () =>
      Effect.gen(function* () {
        const cards = yield* CardsRepo
        const card = cardOf(yield* newIntent())
        yield* cards.insert(card)
        const closed = { ...card, status: "closed" as const, updatedAt: at(5) }
        assert.deepStrictEqual(yield* cards.setStatus(card.token, "closed", at(5)), Option.some(closed))
        for (const late of ["active", "inactive", "closed"] as const) {
          assert.deepStrictEqual(yield* cards.setStatus(card.token, late, at(6)), Option.some(closed), late)
        }
        assert.deepStrictEqual(yield* cards.findByToken(card.token), Option.some(closed))
      })
    )

    it.effect("what an authorization is decided on: the stored decision, else the card, its intent and accounts", () =>
      Effect.gen(function* () {
        const repo = yield* CardAuthorizationsRepo
        const intent = yield* newIntent()
        const card = cardOf(intent)
        yield* CardsRepo.use((cards) => cards.insert(card))
        const settlement = yield* Ledger.use((l) => l.settlementAccount(intent.teamId, "test", "USD"))
        const token = `auth_${crypto.randomUUID()}`
        assert.deepStrictEqual(yield* repo.readForDecision(token, "card_unknown"), { _tag: "NoCard" })
        const inputs = yield* repo.readForDecision(token, card.token)
        assert.strictEqual(inputs._tag, "Card")
        if (inputs._tag !== "Card") return
        assert.deepStrictEqual(inputs.card, card)
        assert.deepStrictEqual(inputs.intent, intent)
        assert.deepStrictEqual(
          inputs.accounts.map((l) => [l.account.id, l.account.kind, l.counters]),
          [
            [intent.accountId, "spend", { postedSum: 10_000, pendingOut: 0, pendingIn: 0 }],
            [settlement.id, "settlement", { postedSum: 0, pendingOut: 0, pendingIn: 0 }]
          ].toSorted((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1))
        )
        const holdOf = (id: string, amount: number) => {
          const { base, entries } = movementPosting(
            {
              teamId: intent.teamId,
              mode: "test",
              code: "card_authorization",
              reference: token,
              debitAccountId: intent.accountId,
              creditAccountId: settlement.id,
              amount
            },
            true
          )
          return Result.getOrThrow(
            planTransaction({ ...base, id: LedgerTransactionId.make(id), createdAt: at(2) }, entries, {
              locked: inputs.accounts,
              checkFunds: true
            })
          )
        }
        const approved: CardAuthorization = {
          token,
          cardToken: card.token,
          teamId: intent.teamId,
          mode: "test",
          intentId: intent.id,
          status: "approved",
          declineReason: null,
          amount: 2_000,
          currency: "USD",
          merchantDescriptor: "ACME STORE",
          merchantMcc: "5734",
          merchantCountry: "US",
          holdTransactionId: LedgerTransactionId.make(crypto.randomUUID()),
          heldAmount: 2_000,
          refundedAmount: 0,
          createdAt: at(2),
          updatedAt: at(2)
        }
        const event = (id: string) => ({
          id,
          teamId: intent.teamId,
          mode: "test" as const,
          type: "checkout_intent.authorized",
          data: { id: intent.id },
          createdAt: at(2)
        })
        // An approval whose intent, card or funds moved after the reading writes nothing.
        const sql = yield* SqlClient.SqlClient
        const writtenFor = (reference: string) => sql<{ holds: number; authorizations: number }>`
          SELECT (SELECT count(*)::int FROM ledger_transactions WHERE reference = ${reference}) AS holds,
                 (SELECT count(*)::int FROM card_authorizations WHERE token = ${reference}) AS authorizations`
        const approval = {
          authorization: approved,
          hold: holdOf(approved.holdTransactionId!, 2_000),
          events: [event(crypto.randomUUID())]
        }
        const intents = yield* CheckoutIntentsRepo
        yield* intents.transition(intent.id, ["approved"], {
          status: "authorized",
          authorizedAmount: 1,
          updatedAt: at(1)
        })
        assert.isFalse(yield* repo.insertDecision(approval), "the intent was taken")
        yield* intents.transition(intent.id, ["authorized"], {
          status: "approved",
          authorizedAmount: 0,
          updatedAt: at(2)
        })
        yield* CardsRepo.use((cards) => cards.setStatus(card.token, "inactive", at(2)))
        assert.isFalse(yield* repo.insertDecision(approval), "the card was made inactive")
        yield* CardsRepo.use((cards) => cards.setStatus(card.token, "active", at(2)))
        const other = yield* Ledger.use((l) =>
          l.hold({
            teamId: intent.teamId,
            mode: "test",
            code: "test_hold",
            reference: crypto.randomUUID(),
            debitAccountId: intent.accountId,
            creditAccountId: settlement.id,
            amount: 8_001
          })
        )
        assert.isFalse(yield* repo.insertDecision(approval), "the funds were held by another")
        assert.deepStrictEqual(yield* writtenFor(token), [{ holds: 0, authorizations: 0 }])
        yield* Ledger.use((l) => l.voidHold(intent.teamId, other.id))

        const firstEvent = crypto.randomUUID()
        assert.isTrue(
          yield* repo.insertDecision({
            authorization: approved,
            hold: holdOf(approved.holdTransactionId!, 2_000),
            events: [event(firstEvent)]
          })
        )
        const second = crypto.randomUUID()
        assert.isFalse(
          yield* repo.insertDecision({
            authorization: {
              ...approved,
              amount: 1_000,
              heldAmount: 1_000,
              holdTransactionId: LedgerTransactionId.make(second)
            },
            hold: holdOf(second, 1_000),
            events: [event(crypto.randomUUID())]
          })
        )
        assert.isFalse(
          yield* repo.insertDecision({
            authorization: { ...approved, status: "declined", declineReason: "card_inactive", heldAmount: 0 },
            hold: null,
            events: []
          })
        )
        assert.deepStrictEqual(yield* repo.find(token), Option.some(approved))
        assert.deepInclude(Option.getOrThrow(yield* CheckoutIntentsRepo.use((r) => r.find(intent.id))), {
          status: "authorized",
          authorizedAmount: 2_000,
          updatedAt: at(2)
        })
        assert.deepStrictEqual((yield* Ledger.use((l) => l.account(intent.teamId, intent.accountId))).balance, {
          posted: 10_000,
          pending: 2_000,
          available: 8_000
        })
        const written = yield* sql<{ holds: number; events: string }>`
          SELECT (SELECT count(*)::int FROM ledger_transactions WHERE reference = ${token}) AS holds,
                 (SELECT string_agg(id::text, ',') FROM outbox_events WHERE data->>'id' = ${intent.id}) AS events`
        assert.deepStrictEqual(written, [{ holds: 1, events: firstEvent }])
        assert.deepStrictEqual(yield* repo.readForDecision(token, card.token), {
          _tag: "Decided",
          decision: { status: "approved", declineReason: null }
        })

        const release = {
          status: "reversed",
          heldAmount: 0,
          holdTransactionId: approved.holdTransactionId,
          updatedAt: at(3)
        } as const
        assert.isTrue(Option.isNone(yield* repo.update(token, ["declined"], release)))
        assert.deepStrictEqual(
          yield* repo.update(token, ["approved"], release),
          Option.some({ ...approved, status: "reversed" as const, heldAmount: 0, updatedAt: at(3) })
        )
        const unknown: CardAuthorization = {
          ...approved,
          token: `auth_${crypto.randomUUID()}`,
          cardToken: "card_unknown",
          teamId: null,
          mode: null,
          intentId: null,
          status: "declined",
          declineReason: "card_not_found",
          merchantMcc: null,
          merchantCountry: null,
          holdTransactionId: null,
          heldAmount: 0
        }
        assert.isTrue(yield* repo.insertDecision({ authorization: unknown, hold: null, events: [] }))
        assert.deepStrictEqual(yield* repo.find(unknown.token), Option.some(unknown))
        assert.deepStrictEqual(yield* repo.readForDecision(unknown.token, "card_unknown"), {
          _tag: "Decided",
          decision: { status: "declined", declineReason: "card_not_found" }
        })
      })
    )
  }
)
