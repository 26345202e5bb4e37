import { assert, layer } from "@effect/vitest"
import {
  AuthorizationTolerance,
  CardAuthorizations,
  CardAuthorizationsRepo,
  Checkout,
  type CheckoutIntent,
  CheckoutIntentsRepo,
  cardEventRefused,
  luhnValid,
  PersistenceUnavailable,
  UNAVAILABLE_DECLINE_REASON
} from "@svc/domain"
import { Clock, Effect, Fiber, type Layer, Option, Ref } from "effect"
import { TestClock } from "effect/testing"
import { assertLedgerInvariants } from "../ledger/LedgerSetup.ts"
import { fundedAgent, spend } from "../spend/SpendSetup.ts"
import {
  authorization,
  authorizationMoves,
  authorize,
  balanceOf,
  type CheckoutPorts,
  cardOf,
  checkoutDomainOver,
  intent,
  intentWithCard
} from "./CheckoutDomainSetup.ts"

const approved = { approve_response: "APPROVED" } as const
const declined = (reason: string) => ({ approve_response: "DECLINED", decline_reason: reason }) as const

const refusalOf = <R>(self: Effect.Effect<unknown, unknown, R>) =>
  Effect.map(Effect.flip(self), (e) => {
    const refused = e as { _tag: string; reason: { _tag: string }; retryable: boolean }
    return `${refused._tag}:${refused.reason._tag}:${refused.retryable}`
  })

/** How every adapter set runs checkout (issue 13): intents governed like spend, one card, money held and posted once. */
export const checkoutContract = <E>(name: string, ports: Layer.Layer<CheckoutPorts, E>) =>
  layer(checkoutDomainOver(ports), { timeout: "120 seconds" })(`Checkout (${name})`, (it) => {
    it.effect(
      "an approved intent's card: numbers shown once, an authorization within the intent holds the money once",
      () =>
        Effect.gen(function* () {
          const { agent } = yield* fundedAgent({ funds: 10_000 })
          const { intent: created, credentials, cardToken } = yield* intentWithCard(agent)
          assert.strictEqual(created.status, "approved")
          assert.strictEqual(created.decision.outcome, "approved")
          assert.isTrue(luhnValid(credentials.number!) && credentials.number!.startsWith("400000"))
          assert.match(credentials.cvc!, /^[0-9]{3}$/u)
          assert.strictEqual(credentials.last4, credentials.number!.slice(-4))
          assert.deepStrictEqual(yield* balanceOf(agent), { posted: 10_000, pending: 0, available: 10_000 })

          const again = yield* Checkout.use((c) => c.credentials(agent, created.id))
          assert.deepStrictEqual(again, {
            cardId: credentials.cardId,
            expMonth: credentials.expMonth,
            expYear: credentials.expYear,
            last4: credentials.last4,
            brand: "visa"
          })
          const card = yield* cardOf(created)
          assert.notInclude(JSON.stringify(card), credentials.number!)
          assert.strictEqual((yield* Checkout.use((c) => c.get(agent.teamId, "test", created.id))).card?.id, card.id)

          const request = authorization(cardToken, { amount: 4_000 })
          assert.deepStrictEqual(yield* authorize(request), approved)
          assert.deepStrictEqual(yield* balanceOf(agent), { posted: 10_000, pending: 4_000, available: 6_000 })
          const authorized = yield* Checkout.use((c) => c.get(agent.teamId, "test", created.id))
          assert.strictEqual(authorized.status, "authorized")
          assert.strictEqual(authorized.authorizedAmount, 4_000)
          assert.deepStrictEqual(yield* authorize(request), approved)
          assert.deepStrictEqual(
            yield* authorize(authorization(cardToken, { amount: 1_000 })),
            declined("intent_not_approved")
          )
          assert.deepStrictEqual(yield* authorizationMoves(agent), ["pending:4000"])
          assert.deepStrictEqual(yield* balanceOf(agent), { posted: 10_000, pending: 4_000, available: 6_000 })
          const late = yield* Checkout.use((c) => c.credentials(agent, created.id))
          assert.isUndefined(late.number)
          yield* assertLedgerInvariants(agent.teamId)
        })
    )

    it.effect("declines with each of the contract's reasons, stores each decline, and holds nothing for any", () =>
      Effect.gen(function* () {
        const { agent } = yield* fundedAgent({ funds: 10_000 })
        const { intent: created, cardToken } = yield* intentWithCard(agent, { amount: 6_000 })
        const cases = [
          [authorization("card_tok_unknown"), "card_not_found"],
          [authorization(cardToken, { currency: "EUR" }), "currency_mismatch"],
          [authorization(cardToken, { amount: 6_001 }), "amount_over_intent"],
          [authorization(cardToken, { merchant: { descriptor: "OTHER SHOP", mcc: "5942" } }), "merchant_mismatch"],
          [
            authorization(cardToken, { merchant: { descriptor: "ACME BOOKS", mcc: "7995", country: "US" } }),
            "merchant_mismatch"
          ]
        ] as const
        for (const [request, reason] of cases) {
          assert.deepStrictEqual(yield* authorize(request), declined(reason), reason)
          assert.deepStrictEqual(yield* authorize(request), declined(reason), `${reason} replayed`)
          const stored = yield* CardAuthorizationsRepo.use((r) => r.find(request.token))
          assert.isTrue(Option.isSome(stored) && stored.value.status === "declined", reason)
        }
        const unknown = yield* CardAuthorizationsRepo.use((r) => r.find(cases[0][0].token))
        assert.isTrue(Option.isSome(unknown) && unknown.value.teamId === null && unknown.value.intentId === null)

        yield* CardAuthorizations.use((a) => a.cardChanged(cardToken, "inactive"))
        assert.deepStrictEqual(yield* authorize(authorization(cardToken)), declined("card_inactive"))
        yield* CardAuthorizations.use((a) => a.cardChanged(cardToken, "active"))

        // Created while the funds sufficed; the first authorization took them.
        const other = yield* intentWithCard(agent, { amount: 6_000 })
        assert.deepStrictEqual(yield* authorize(authorization(other.cardToken, { amount: 6_000 })), approved)
        const short = authorization(cardToken, { amount: 5_000 })
        assert.deepStrictEqual(yield* authorize(short), declined("insufficient_funds"))
        assert.deepStrictEqual(yield* authorize(short), declined("insufficient_funds"))
        assert.strictEqual((yield* Checkout.use((c) => c.get(agent.teamId, "test", created.id))).status, "approved")

        const expiring = yield* intentWithCard(agent, { amount: 1_000, expiresInSeconds: 60 })
        yield* TestClock.adjust("61 seconds")
        assert.deepStrictEqual(
          yield* authorize(authorization(expiring.cardToken, { amount: 1_000 })),
          declined("intent_expired")
        )
        assert.deepStrictEqual(yield* authorizationMoves(agent), ["pending:6000"])
        assert.strictEqual(
          yield* refusalOf(
            CardAuthorizations.use((a) => cardEventRefused(a.cardChanged("card_tok_unknown", "closed")))
          ),
          "InboundCommandRefused:CardNotFound:false"
        )
        yield* assertLedgerInvariants(agent.teamId)
      })
    )

    it.effect("a tolerance lets an authorization exceed its intent by that much, and no more", () =>
      Effect.gen(function* () {
        const { agent } = yield* fundedAgent({ funds: 10_000 })
        const { cardToken } = yield* intentWithCard(agent)
        const withTip = (amount: number) =>
          authorize(authorization(cardToken, { amount })).pipe(Effect.provideService(AuthorizationTolerance, 500))
        assert.deepStrictEqual(yield* withTip(5_501), declined("amount_over_intent"))
        assert.deepStrictEqual(yield* withTip(5_500), approved)
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 10_000, pending: 5_500, available: 4_500 })
      })
    )

    it.effect("200 concurrent authorizations on one intent: exactly one is approved and holds", () =>
      Effect.gen(function* () {
        const { agent } = yield* fundedAgent({ funds: 100_000 })
        const { cardToken } = yield* intentWithCard(agent)
        const answers = yield* Effect.forEach(
          Array.from({ length: 200 }, () => authorization(cardToken)),
          authorize,
          { concurrency: "unbounded" }
        )
        assert.strictEqual(answers.filter((a) => a.approve_response === "APPROVED").length, 1)
        assert.isTrue(
          answers
            .filter((a) => a.approve_response === "DECLINED")
            .every((a) => a.decline_reason === "intent_not_approved")
        )
        assert.deepStrictEqual(yield* authorizationMoves(agent), ["pending:5000"])
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 100_000, pending: 5_000, available: 95_000 })
        yield* assertLedgerInvariants(agent.teamId)
      })
    )

    it.effect("500 concurrent authorizations on 100 cards of one account hold no more than its available balance", () =>
      Effect.gen(function* () {
        const { agent } = yield* fundedAgent({ funds: 12_500 })
        const cards = yield* Effect.forEach(Array.from({ length: 100 }), () => intentWithCard(agent, { amount: 1_000 }))
        const requests = cards.flatMap(({ cardToken }) =>
          Array.from({ length: 5 }, () => authorization(cardToken, { amount: 1_000 }))
        )
        const answers = yield* Effect.forEach(requests, authorize, { concurrency: "unbounded" })
        const approvedCards = requests
          .filter((_, i) => answers[i]?.approve_response === "APPROVED")
          .map((r) => r.card_token)
        assert.strictEqual(approvedCards.length, 12, "the funds cover twelve")
        assert.strictEqual(new Set(approvedCards).size, 12, "a single-use card approves once")
        assert.deepStrictEqual(
          [
            ...new Set(answers.flatMap((a) => (a.approve_response === "DECLINED" ? [a.decline_reason] : [])))
          ].toSorted(),
          ["insufficient_funds", "intent_not_approved"]
        )
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 12_500, pending: 12_000, available: 500 })
        yield* assertLedgerInvariants(agent.teamId)
      })
    )

    it.effect("concurrent replays of one authorization token answer alike and hold once", () =>
      Effect.gen(function* () {
        const { agent } = yield* fundedAgent({ funds: 100_000 })
        const { cardToken } = yield* intentWithCard(agent)
        const request = authorization(cardToken)
        const answers = yield* Effect.forEach(
          Array.from({ length: 5 }, () => request),
          authorize,
          {
            concurrency: "unbounded"
          }
        )
        assert.deepStrictEqual(
          answers,
          Array.from({ length: 5 }, () => approved)
        )
        assert.deepStrictEqual(yield* authorizationMoves(agent), ["pending:5000"])
      })
    )

    it.effect(
      "clearing less than the hold posts that, releases the rest, completes the intent and closes the card, once",
      () =>
        Effect.gen(function* () {
          const { agent } = yield* fundedAgent({ funds: 10_000, policy: { dailyBudget: 10_000 } })
          const { intent: created, cardToken } = yield* intentWithCard(agent)
          const request = authorization(cardToken)
          yield* authorize(request)
          const cleared = { transactionId: "txn_1", token: request.token, amount: 3_000, currency: "USD" }
          const refused = [
            { ...cleared, amount: 5_001 },
            { ...cleared, currency: "EUR" }
          ]
          for (const clearing of refused) {
            assert.strictEqual(
              yield* refusalOf(CardAuthorizations.use((a) => cardEventRefused(a.clear(clearing)))),
              "InboundCommandRefused:CardClearingUnmatched:false"
            )
          }
          assert.strictEqual(
            yield* refusalOf(
              CardAuthorizations.use((a) => cardEventRefused(a.clear({ ...cleared, token: "auth_unknown" })))
            ),
            "InboundCommandRefused:CardAuthorizationNotFound:false"
          )
          yield* CardAuthorizations.use((a) => a.clear(cleared))
          yield* CardAuthorizations.use((a) => a.clear(cleared))
          assert.deepStrictEqual(yield* balanceOf(agent), { posted: 7_000, pending: 0, available: 7_000 })
          assert.deepStrictEqual(yield* authorizationMoves(agent), ["pending:5000", "post_pending:3000"])
          const done = yield* Checkout.use((c) => c.get(agent.teamId, "test", created.id))
          assert.deepInclude(done, { status: "completed", capturedAmount: 3_000, authorizedAmount: 0 })
          assert.strictEqual((yield* cardOf(created)).status, "closed")
          assert.deepStrictEqual(yield* authorize(authorization(cardToken, { amount: 100 })), declined("card_inactive"))
          // The day's budget counts what was captured: 3_000 of 10_000.
          assert.strictEqual((yield* spend(agent, 7_000)).status, "approved")
          assert.strictEqual((yield* spend(agent, 1)).status, "denied")
          yield* assertLedgerInvariants(agent.teamId)
        })
    )

    it.effect("a clearing of the whole hold posts it all", () =>
      Effect.gen(function* () {
        const { agent } = yield* fundedAgent({ funds: 10_000 })
        const { cardToken } = yield* intentWithCard(agent)
        const request = authorization(cardToken, { amount: 4_200 })
        yield* authorize(request)
        yield* CardAuthorizations.use((a) =>
          a.clear({ transactionId: "txn_2", token: request.token, amount: 4_200, currency: "USD" })
        )
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 5_800, pending: 0, available: 5_800 })
        assert.deepStrictEqual(yield* authorizationMoves(agent), ["pending:4200", "post_pending:4200"])
        yield* assertLedgerInvariants(agent.teamId)
      })
    )

    it.effect("advice moves the hold to the new amount, a reversal releases it and frees the intent, once each", () =>
      Effect.gen(function* () {
        const { agent } = yield* fundedAgent({ funds: 10_000 })
        const { intent: created, cardToken } = yield* intentWithCard(agent)
        const request = authorization(cardToken)
        yield* authorize(request)
        const advise = (amount: number) => CardAuthorizations.use((a) => a.advise({ token: request.token, amount }))
        yield* advise(4_500)
        yield* advise(4_500)
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 10_000, pending: 4_500, available: 5_500 })
        assert.strictEqual(
          (yield* Checkout.use((c) => c.get(agent.teamId, "test", created.id))).authorizedAmount,
          4_500
        )
        yield* advise(0)
        yield* advise(0)
        yield* advise(3_000)
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 10_000, pending: 0, available: 10_000 })
        assert.deepStrictEqual(yield* authorizationMoves(agent), [
          "pending:5000",
          "void_pending:5000",
          "pending:4500",
          "void_pending:4500"
        ])
        const freed = yield* Checkout.use((c) => c.get(agent.teamId, "test", created.id))
        assert.deepInclude(freed, { status: "approved", authorizedAmount: 0 })
        assert.deepStrictEqual(yield* authorize(authorization(cardToken, { amount: 2_000 })), approved)
        assert.strictEqual(
          yield* refusalOf(
            CardAuthorizations.use((a) => cardEventRefused(a.advise({ token: "auth_unknown", amount: 0 })))
          ),
          "InboundCommandRefused:CardAuthorizationNotFound:false"
        )
        yield* assertLedgerInvariants(agent.teamId)
      })
    )

    it.effect("policy decides intents as spend: denied, pending approval, then approved or denied by a person", () =>
      Effect.gen(function* () {
        const { agent, approver } = yield* fundedAgent({
          funds: 100_000,
          policy: { approvalThreshold: 5_000, blockedMerchants: ["Casino Royale"] }
        })
        const service = yield* Checkout
        const blocked = yield* intent(agent, { merchant: { name: "Casino Royale" } })
        assert.strictEqual(blocked.status, "denied")
        assert.include(
          blocked.decision.reasons.map((r) => r.code),
          "merchant_blocked"
        )
        const { agent: poor } = yield* fundedAgent({ funds: 1_000 })
        const unfunded = yield* intent(poor, { amount: 1_001 })
        assert.strictEqual(unfunded.status, "denied")
        assert.include(
          unfunded.decision.reasons.map((r) => r.code),
          "insufficient_funds"
        )
        const big = yield* intent(agent, { amount: 6_000 })
        assert.strictEqual(big.status, "pending_approval")
        assert.strictEqual(big.approval?.status, "pending")
        assert.deepInclude(yield* Effect.flip(service.credentials(agent, big.id)), {
          _tag: "CheckoutIntentNotUsable",
          status: "pending_approval"
        })
        const let_go = yield* service.approve(approver, big.approval!.id, "ok")
        assert.strictEqual(let_go.status, "approved")
        assert.strictEqual(let_go.approval?.status, "approved")
        assert.isDefined((yield* service.credentials(agent, big.id)).number)
        assert.deepInclude(yield* Effect.flip(service.approve(approver, big.approval!.id, null)), {
          _tag: "CheckoutIntentNotUsable",
          status: "approved"
        })
        const refused = yield* intent(agent, { amount: 7_000 })
        const denied = yield* service.deny(approver, refused.approval!.id, "no")
        assert.strictEqual(denied.status, "denied")
        assert.deepInclude(yield* Effect.flip(service.credentials(agent, refused.id)), {
          _tag: "CheckoutIntentNotUsable",
          status: "denied"
        })
        const other = yield* fundedAgent({ funds: 0 })
        assert.strictEqual(
          (yield* Effect.flip(service.approve(other.approver, big.approval!.id, null)))._tag,
          "ApprovalNotFound"
        )
        const pending = yield* service.list(
          agent.teamId,
          { mode: "test", status: "pending_approval" },
          { limit: 10, after: Option.none() }
        )
        assert.deepStrictEqual(pending, [])
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 100_000, pending: 0, available: 100_000 })
      })
    )

    it.effect("budgets are shared with spend requests; unused intents give theirs back on expiry and cancel", () =>
      Effect.gen(function* () {
        const { agent } = yield* fundedAgent({ funds: 100_000, policy: { dailyBudget: 10_000 } })
        const service = yield* Checkout
        const soon = yield* intentWithCard(agent, { amount: 6_000, expiresInSeconds: 60 })
        const later = yield* intent(agent, { amount: 3_000 })
        const lacking = yield* spend(agent, 2_000)
        assert.strictEqual(lacking.status, "denied")
        assert.include(
          lacking.decision.reasons.map((r) => r.code),
          "daily_budget_exceeded"
        )
        assert.strictEqual((yield* intent(agent, { amount: 1_001 })).status, "denied")

        yield* TestClock.adjust("61 seconds")
        assert.isAtLeast(yield* service.expireDue, 1)
        const expired = yield* service.get(agent.teamId, "test", soon.intent.id)
        assert.strictEqual(expired.status, "expired")
        assert.strictEqual((yield* cardOf(soon.intent)).status, "closed")
        assert.strictEqual(yield* service.expireDue, 0)
        assert.strictEqual((yield* spend(agent, 2_000)).status, "approved")

        const canceled = yield* service.cancel(agent, later.id)
        assert.strictEqual(canceled.status, "canceled")
        assert.strictEqual((yield* spend(agent, 3_000)).status, "approved")
        for (const done of [expired, canceled]) {
          assert.deepInclude(yield* Effect.flip(service.cancel(agent, done.id)), {
            _tag: "CheckoutIntentNotUsable",
            status: done.status
          })
        }
      })
    )

    it.effect(
      "an intent whose approval expires is expired by the sweeper, its approval too, its budget given back",
      () =>
        Effect.gen(function* () {
          const { agent, approver } = yield* fundedAgent({
            funds: 100_000,
            policy: { approvalThreshold: 5_000, approvalTtlSeconds: 60, dailyBudget: 8_000 }
          })
          const service = yield* Checkout
          const waiting = yield* intent(agent, { amount: 6_000 })
          assert.strictEqual((yield* spend(agent, 3_000)).status, "denied")
          yield* TestClock.adjust("61 seconds")
          assert.isAtLeast(yield* service.expireDue, 1)
          const expired = yield* service.get(agent.teamId, "test", waiting.id)
          assert.strictEqual(expired.status, "expired")
          assert.strictEqual(expired.approval?.status, "expired")
          assert.deepInclude(yield* Effect.flip(service.approve(approver, waiting.approval!.id, null)), {
            _tag: "CheckoutIntentNotUsable",
            status: "expired"
          })
          assert.strictEqual((yield* spend(agent, 3_000)).status, "approved")
        })
    )

    it.effect("an unused intent past its deadline is expired when read, its card closed, its budget given back", () =>
      Effect.gen(function* () {
        const { agent } = yield* fundedAgent({ funds: 100_000, policy: { dailyBudget: 5_000 } })
        const service = yield* Checkout
        const { intent: created, cardToken } = yield* intentWithCard(agent, { expiresInSeconds: 120 })
        assert.strictEqual((yield* spend(agent, 1)).status, "denied")
        yield* TestClock.adjust("121 seconds")
        const read = yield* service.get(agent.teamId, "test", created.id)
        assert.strictEqual(read.status, "expired")
        assert.deepStrictEqual(yield* authorize(authorization(cardToken)), declined("card_inactive"))
        assert.strictEqual((yield* spend(agent, 5_000)).status, "approved")
        const used = yield* intentWithCard(yield* Effect.map(fundedAgent({ funds: 10_000 }), (a) => a.agent))
        yield* authorize(authorization(used.cardToken))
        yield* TestClock.adjust("2 hours")
        const authorized: CheckoutIntent = yield* service.get(used.intent.teamId, "test", used.intent.id)
        assert.strictEqual(authorized.status, "authorized")
      })
    )

    it.effect("a closed card stays closed: a late card event does not reopen it, and it declines", () =>
      Effect.gen(function* () {
        const { agent } = yield* fundedAgent({ funds: 10_000 })
        const { intent: created, cardToken } = yield* intentWithCard(agent)
        const request = authorization(cardToken, { amount: 2_000 })
        assert.deepStrictEqual(yield* authorize(request), approved)
        yield* CardAuthorizations.use((a) =>
          a.clear({ transactionId: "txn_late", token: request.token, amount: 2_000, currency: "USD" })
        )
        const closed = yield* cardOf(created)
        assert.strictEqual(closed.status, "closed")
        for (const late of ["active", "inactive", "active"] as const) {
          yield* CardAuthorizations.use((a) => a.cardChanged(cardToken, late))
        }
        assert.deepStrictEqual(yield* cardOf(created), closed)
        assert.deepStrictEqual(yield* authorize(authorization(cardToken, { amount: 100 })), declined("card_inactive"))

        const other = yield* intentWithCard(agent, { amount: 1_000 })
        yield* CardAuthorizations.use((a) => a.cardChanged(other.cardToken, "inactive"))
        yield* CardAuthorizations.use((a) => a.cardChanged(other.cardToken, "closed"))
        yield* CardAuthorizations.use((a) => a.cardChanged(other.cardToken, "active"))
        assert.strictEqual((yield* cardOf(other.intent)).status, "closed")
        assert.deepStrictEqual(
          yield* authorize(authorization(other.cardToken, { amount: 1_000 })),
          declined("card_inactive")
        )
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 8_000, pending: 0, available: 8_000 })
        yield* assertLedgerInvariants(agent.teamId)
      })
    )

    it.effect("an intent pending approval is due at its own deadline when that comes before its approval's", () =>
      Effect.gen(function* () {
        const { agent, approver } = yield* fundedAgent({
          funds: 100_000,
          policy: { approvalThreshold: 5_000, approvalTtlSeconds: 86_400, dailyBudget: 19_000 }
        })
        const service = yield* Checkout
        const swept = yield* intent(agent, { amount: 6_000, expiresInSeconds: 60 })
        const approvedLate = yield* intent(agent, { amount: 7_000, expiresInSeconds: 120 })
        const later = yield* intent(agent, { amount: 6_000, expiresInSeconds: 3_600 })
        assert.deepStrictEqual(
          [swept, approvedLate, later].map((i) => i.status),
          ["pending_approval", "pending_approval", "pending_approval"]
        )
        assert.strictEqual((yield* spend(agent, 1)).status, "denied")

        yield* TestClock.adjust("61 seconds")
        const now = new Date(yield* Clock.currentTimeMillis).toISOString()
        const due = yield* CheckoutIntentsRepo.use((r) => r.dueForExpiry(now, 100))
        assert.deepStrictEqual(
          due.filter((i) => i.teamId === agent.teamId).map((i) => i.id),
          [swept.id]
        )
        assert.isAtLeast(yield* service.expireDue, 1)
        const expired = Option.getOrThrow(yield* CheckoutIntentsRepo.use((r) => r.find(swept.id)))
        assert.strictEqual(expired.status, "expired")
        assert.strictEqual(expired.approval?.status, "expired")
        assert.deepInclude(yield* Effect.flip(service.approve(approver, swept.approval!.id, null)), {
          _tag: "CheckoutIntentNotUsable",
          status: "expired"
        })

        yield* TestClock.adjust("60 seconds")
        assert.deepInclude(yield* Effect.flip(service.approve(approver, approvedLate.approval!.id, "too late")), {
          _tag: "CheckoutIntentNotUsable",
          status: "expired"
        })
        const lapsed = yield* service.get(agent.teamId, "test", approvedLate.id)
        assert.deepInclude(lapsed, { status: "expired" })
        assert.strictEqual(lapsed.approval?.status, "expired")
        assert.strictEqual((yield* service.approve(approver, later.approval!.id, null)).status, "approved")
        for (const _ of [1, 2, 3]) assert.strictEqual((yield* spend(agent, 4_000)).status, "approved")
        assert.strictEqual((yield* spend(agent, 1_001)).status, "denied")
      })
    )

    it.effect("past the deadline, or with the store down, the answer is DECLINED unavailable and nothing is kept", () =>
      Effect.gen(function* () {
        const { agent } = yield* fundedAgent({ funds: 10_000 })
        const { intent: created, cardToken } = yield* intentWithCard(agent)
        const repo = yield* CardAuthorizationsRepo
        const request = authorization(cardToken)
        const slow = yield* CardAuthorizations.make.pipe(
          Effect.provideService(
            CardAuthorizationsRepo,
            CardAuthorizationsRepo.of({
              ...repo,
              insertDecision: (decided) => Effect.andThen(Effect.sleep("5 seconds"), repo.insertDecision(decided))
            })
          )
        )
        const fiber = yield* Effect.forkChild(slow.authorize(request))
        yield* TestClock.adjust("5 seconds")
        assert.deepStrictEqual(yield* Fiber.join(fiber), declined(UNAVAILABLE_DECLINE_REASON))
        const down = yield* CardAuthorizations.make.pipe(
          Effect.provideService(
            CardAuthorizationsRepo,
            CardAuthorizationsRepo.of({
              ...repo,
              readForDecision: () => Effect.fail(new PersistenceUnavailable({ operation: "test" }))
            })
          )
        )
        assert.deepStrictEqual(yield* down.authorize(request), declined(UNAVAILABLE_DECLINE_REASON))
        assert.isTrue(Option.isNone(yield* CardAuthorizationsRepo.use((r) => r.find(request.token))))
        assert.deepStrictEqual(yield* authorizationMoves(agent), [])
        assert.strictEqual((yield* Checkout.use((c) => c.get(agent.teamId, "test", created.id))).status, "approved")
        assert.deepStrictEqual(yield* authorize(request), approved)
      })
    )

    it.effect("an approval that committed although its answer was lost (DECLINED unavailable) is reversed", () =>
      Effect.gen(function* () {
        const { agent } = yield* fundedAgent({ funds: 10_000 })
        const { intent: created, cardToken } = yield* intentWithCard(agent)
        const repo = yield* CardAuthorizationsRepo
        const lost = yield* Ref.make(1)
        // The first write commits and then its connection is lost (a failover while the commit's answer was on its
        // way): the caller sees the database unavailable although the approval and its hold are stored.
        const lossy = yield* CardAuthorizations.make.pipe(
          Effect.provideService(
            CardAuthorizationsRepo,
            CardAuthorizationsRepo.of({
              ...repo,
              insertDecision: (decided) =>
                Effect.tap(repo.insertDecision(decided), () =>
                  Effect.flatMap(
                    Ref.getAndUpdate(lost, (n) => n - 1),
                    (n) =>
                      n > 0 ? Effect.fail(new PersistenceUnavailable({ operation: "commit answer lost" })) : Effect.void
                  )
                )
            })
          )
        )
        const request = authorization(cardToken, { amount: 4_000 })
        assert.deepStrictEqual(yield* lossy.authorize(request), declined(UNAVAILABLE_DECLINE_REASON))
        // The issuer was told DECLINED: the stored approval is given up in the background, its hold released. The
        // background fiber's retries wait on the test clock, its statements on the database: both are given time.
        let status = "approved"
        for (let i = 0; i < 100 && status !== "reversed"; i++) {
          yield* TestClock.adjust("1 second")
          yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 50)))
          status = Option.getOrThrow(yield* CardAuthorizationsRepo.use((r) => r.find(request.token))).status
        }
        assert.strictEqual(status, "reversed")
        assert.deepStrictEqual(yield* authorizationMoves(agent), ["pending:4000", "void_pending:4000"])
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 10_000, pending: 0, available: 10_000 })
        const freed = yield* Checkout.use((c) => c.get(agent.teamId, "test", created.id))
        assert.deepInclude(freed, { status: "approved", authorizedAmount: 0 })
        assert.deepStrictEqual(yield* authorize(authorization(cardToken, { amount: 3_000 })), approved)
        yield* assertLedgerInvariants(agent.teamId)
      })
    )

    it.effect("refuses malformed intents naming the field, and creates nothing", () =>
      Effect.gen(function* () {
        const { agent } = yield* fundedAgent({ funds: 10_000 })
        const refusals = [
          [{ amount: 0 }, "amount"],
          [{ amount: 12.5 }, "amount"],
          [{ currency: "usd" }, "currency"],
          [{ currency: "EUR" }, "currency"],
          [{ merchant: { name: "" } }, "merchant.name"],
          [{ merchant: { name: "x".repeat(501) } }, "merchant.name"],
          [{ merchant: { name: "Acme", url: "ftp://acme.example" } }, "merchant.url"],
          [{ merchant: { name: "Acme", url: "not a url" } }, "merchant.url"],
          [{ merchant: { name: "Acme", mcc: "59420" } }, "merchant.mcc"],
          [{ merchant: { name: "Acme", country: "us" } }, "merchant.country"],
          [{ purpose: "" }, "purpose"],
          [{ purpose: "x".repeat(501) }, "purpose"],
          [{ expiresInSeconds: 59 }, "expiresInSeconds"],
          [{ expiresInSeconds: 2_592_001 }, "expiresInSeconds"],
          [{ expiresInSeconds: 90.5 }, "expiresInSeconds"]
        ] as const
        for (const [input, field] of refusals) {
          const refused = yield* Effect.flip(intent(agent, input))
          assert.deepInclude(refused, { _tag: "CheckoutIntentInvalid", field }, JSON.stringify(input))
        }
        const ok = yield* intent(agent, {
          merchant: { name: "Acme", url: "https://acme.example/checkout" },
          expiresInSeconds: 60
        })
        assert.deepStrictEqual(ok.merchant, {
          name: "Acme",
          url: "https://acme.example/checkout",
          mcc: null,
          country: null
        })
        const listed = yield* Checkout.use((c) =>
          c.list(agent.teamId, { mode: "test" }, { limit: 10, after: Option.none() })
        )
        assert.deepStrictEqual(
          listed.map((i) => i.id),
          [ok.id]
        )
        const outsider = yield* fundedAgent({ funds: 0 })
        assert.strictEqual(
          (yield* Effect.flip(Checkout.use((c) => c.get(outsider.team.id, "test", ok.id))))._tag,
          "CheckoutIntentNotFound"
        )
        assert.strictEqual(
          (yield* Effect.flip(Checkout.use((c) => c.cancel(outsider.agent, ok.id))))._tag,
          "CheckoutIntentNotFound"
        )
        assert.strictEqual(
          (yield* Effect.flip(Checkout.use((c) => c.get(agent.teamId, "live", ok.id))))._tag,
          "CheckoutIntentNotFound"
        )
      })
    )

    it.effect(
      "with new-merchant review, the first intent at a merchant waits; once its payment clears, it is known",
      () =>
        Effect.gen(function* () {
          const { agent, approver } = yield* fundedAgent({ funds: 100_000, policy: { reviewNewMerchants: true } })
          const service = yield* Checkout
          const first = yield* intent(agent)
          assert.strictEqual(first.status, "pending_approval")
          assert.deepStrictEqual(
            first.decision.reasons.map((r) => r.code),
            ["new_merchant"]
          )
          yield* service.approve(approver, first.approval!.id, null)
          const credentials = yield* service.credentials(agent, first.id)
          assert.isString(credentials.number)
          assert.strictEqual((yield* intent(agent)).status, "pending_approval", "approved but unpaid: still new")
          const request = authorization((yield* cardOf(first)).token)
          assert.deepStrictEqual(yield* authorize(request), approved)
          yield* CardAuthorizations.use((a) =>
            a.clear({ transactionId: "txn_new_merchant", token: request.token, amount: 5_000, currency: "USD" })
          )
          const known = yield* intent(agent, { merchant: { name: "  ACME books " } })
          assert.strictEqual(known.status, "approved")
          assert.deepStrictEqual(known.decision.reasons, [])
        })
    )
  })
