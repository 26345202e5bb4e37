import { assert, layer } from "@effect/vitest"
import { simulatedPayoutRail } from "@svc/adapters-memory"
import { type CryptoPayoutStatus, CryptoPayouts, PayoutRail } from "@svc/domain"
import { Effect, type Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { assertLedgerInvariants } from "../ledger/LedgerSetup.ts"
import { fundedAgent } from "../spend/SpendSetup.ts"
import {
  balanceOf,
  countingRail,
  ledgerOf,
  type PayoutPorts,
  payOut,
  payoutsDomainOver,
  seedQuote
} from "./PayoutsSetup.ts"

/** The address the contract's rail fails every transfer to, once broadcast. */
const REVERTING = "0x000000000000000000000000000000000000dEaD"
/** The address the contract's rail refuses to sign for. */
const REFUSED = "0x0000000000000000000000000000000000000bad"

/** Runs the layer's worker until it has nothing left: what earlier tests queued does not reach a test's own rail. */
const drain = Effect.gen(function* () {
  for (let round = 0; round < 5; round++) yield* CryptoPayouts.use((s) => s.processDue)
})

const kinds = (txs: ReadonlyArray<{ readonly kind: string }>) => txs.map((t) => t.kind).toSorted()

/** How every adapter set runs crypto payouts: held at creation, posted or released exactly once, submitted once. */
export const payoutsContract = <E>(name: string, ports: Layer.Layer<PayoutPorts, E>) =>
  layer(
    payoutsDomainOver(
      ports,
      simulatedPayoutRail({
        rejection: (t) => (t.address === REFUSED ? "no such account" : undefined),
        failure: (t) => (t.address === REVERTING ? "execution reverted" : undefined)
      })
    ),
    { timeout: "120 seconds" }
  )(`Crypto payouts (${name})`, (it) => {
    it.effect("holds the quote's amount, submits once, posts the hold once confirmed", () =>
      Effect.gen(function* () {
        const { agent, approver, team } = yield* fundedAgent({ funds: 10_000 })
        const service = yield* CryptoPayouts
        const quote = yield* seedQuote(agent, approver, { amount: 2_500 })
        const p = yield* service.create(agent, { quoteId: quote.id })
        assert.strictEqual(p.status, "pending")
        assert.strictEqual(p.amount, 2_500)
        assert.strictEqual(p.tokenAmount, quote.tokenAmount)
        assert.isNull(p.txHash)
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 10_000, pending: 2_500, available: 7_500 })
        assert.deepStrictEqual(kinds(yield* ledgerOf(agent, p.id)), ["pending"])

        const first = yield* service.processDue
        assert.strictEqual(first.submitted, 1)
        const submitted = yield* service.get(team.id, "test", p.id)
        assert.strictEqual(submitted.status, "submitted")
        assert.match(submitted.txHash ?? "", /^0x[0-9a-f]{64}$/u)
        assert.isNotNull(submitted.submittedAt)
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 10_000, pending: 2_500, available: 7_500 })

        const second = yield* service.processDue
        assert.strictEqual(second.confirmed, 1)
        const confirmed = yield* service.get(team.id, "test", p.id)
        assert.strictEqual(confirmed.status, "confirmed")
        assert.strictEqual(confirmed.txHash, submitted.txHash)
        assert.isNotNull(confirmed.completedAt)
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 7_500, pending: 0, available: 7_500 })
        assert.deepStrictEqual(kinds(yield* ledgerOf(agent, p.id)), ["pending", "post_pending"])

        const idle = yield* service.processDue
        assert.deepStrictEqual(idle, { confirmed: 0, failed: 0, rebroadcast: 0, submitted: 0 })
        const refused = yield* Effect.flip(service.cancel(agent, p.id))
        assert.strictEqual(refused._tag, "CryptoPayoutNotPending")
        yield* assertLedgerInvariants(team.id)
      })
    )

    it.effect("a transfer the chain reverts fails the payout and releases its hold once", () =>
      Effect.gen(function* () {
        const { agent, approver, team } = yield* fundedAgent({ funds: 10_000 })
        const service = yield* CryptoPayouts
        const quote = yield* seedQuote(agent, approver, { amount: 3_000, address: REVERTING })
        const p = yield* service.create(agent, { quoteId: quote.id })
        yield* service.processDue
        const round = yield* service.processDue
        assert.strictEqual(round.failed, 1)
        const failed = yield* service.get(team.id, "test", p.id)
        assert.strictEqual(failed.status, "failed")
        assert.strictEqual(failed.failureReason, "execution reverted")
        assert.isNotNull(failed.txHash)
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 10_000, pending: 0, available: 10_000 })
        assert.deepStrictEqual(kinds(yield* ledgerOf(agent, p.id)), ["pending", "void_pending"])
        yield* service.processDue
        assert.deepStrictEqual(kinds(yield* ledgerOf(agent, p.id)), ["pending", "void_pending"])
        yield* assertLedgerInvariants(team.id)
      })
    )

    it.effect("a transfer the rail refuses to sign fails the payout before anything is submitted", () =>
      Effect.gen(function* () {
        const { agent, approver, team } = yield* fundedAgent({ funds: 10_000 })
        const service = yield* CryptoPayouts
        const quote = yield* seedQuote(agent, approver, { address: REFUSED })
        const p = yield* service.create(agent, { quoteId: quote.id })
        assert.strictEqual((yield* service.processDue).failed, 1)
        const failed = yield* service.get(team.id, "test", p.id)
        assert.strictEqual(failed.status, "failed")
        assert.strictEqual(failed.failureReason, "no such account")
        assert.isNull(failed.txHash)
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 10_000, pending: 0, available: 10_000 })
        yield* assertLedgerInvariants(team.id)
      })
    )

    it.effect("over the threshold it waits for an approver; approval queues it, denial releases it", () =>
      Effect.gen(function* () {
        const { agent, approver, team } = yield* fundedAgent({ funds: 100_000, policy: { approvalThreshold: 5_000 } })
        const service = yield* CryptoPayouts
        const big = yield* payOut(agent, approver, 6_000)
        assert.strictEqual(big.status, "pending_approval")
        assert.isNotNull(big.approval)
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 100_000, pending: 6_000, available: 94_000 })
        assert.strictEqual((yield* service.processDue).submitted, 0, "the worker leaves a payout awaiting approval")
        const approved = yield* service.approve(approver, big.approval!.id, "ok")
        assert.strictEqual(approved.status, "pending")
        assert.strictEqual(approved.approval?.status, "approved")
        assert.strictEqual((yield* service.processDue).submitted, 1)

        const other = yield* payOut(agent, approver, 7_000)
        const denied = yield* service.deny(approver, other.approval!.id, "no")
        assert.strictEqual(denied.status, "denied")
        assert.deepStrictEqual(kinds(yield* ledgerOf(agent, other.id)), ["pending", "void_pending"])
        const late = yield* Effect.flip(service.approve(approver, other.approval!.id, null))
        assert.include(["CryptoPayoutNotPending", "ApprovalStepRefused"], late._tag)

        const queue = yield* service.list(team.id, { withApproval: true }, { limit: 10, after: Option.none() })
        assert.deepStrictEqual(queue.map((p) => p.id).toSorted(), [big.id, other.id].toSorted())
        yield* service.processDue
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 94_000, pending: 0, available: 94_000 })
        yield* assertLedgerInvariants(team.id)
      })
    )

    it.effect("policy denial holds nothing and uses the quote", () =>
      Effect.gen(function* () {
        const { agent, approver, team } = yield* fundedAgent({ funds: 10_000, policy: { perRequestLimit: 500 } })
        const service = yield* CryptoPayouts
        const quote = yield* seedQuote(agent, approver, { amount: 1_000 })
        const p = yield* service.create(agent, { quoteId: quote.id })
        assert.strictEqual(p.status, "denied")
        assert.isNull(p.holdTransactionId)
        assert.deepStrictEqual(yield* ledgerOf(agent, p.id), [])
        const again = yield* Effect.flip(service.create(agent, { quoteId: quote.id }))
        assert.deepStrictEqual(again._tag === "CryptoQuoteNotUsable" && again.reason, "used")
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 10_000, pending: 0, available: 10_000 })
        yield* assertLedgerInvariants(team.id)
      })
    )

    it.effect("cancel releases a pending or awaiting payout once; after submission it is refused", () =>
      Effect.gen(function* () {
        const { agent, approver, team } = yield* fundedAgent({ funds: 100_000, policy: { approvalThreshold: 5_000 } })
        const service = yield* CryptoPayouts
        const queued = yield* payOut(agent, approver, 1_000)
        const awaiting = yield* payOut(agent, approver, 6_000)
        const canceled = yield* service.cancel(agent, queued.id)
        const withdrawn = yield* service.cancel(agent, awaiting.id)
        assert.deepStrictEqual([canceled.status, withdrawn.status], ["canceled", "canceled"])
        assert.strictEqual(withdrawn.approval?.status, "canceled")
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 100_000, pending: 0, available: 100_000 })
        for (const p of [canceled, withdrawn]) {
          const again = yield* Effect.flip(service.cancel(agent, p.id))
          assert.strictEqual(again._tag, "CryptoPayoutNotPending")
        }
        assert.strictEqual((yield* service.processDue).submitted, 0)

        const sent = yield* payOut(agent, approver, 1_000)
        yield* service.processDue
        const late = yield* Effect.flip(service.cancel(agent, sent.id))
        assert.deepStrictEqual(late._tag === "CryptoPayoutNotPending" && late.status, "submitted")
        const outsider = yield* fundedAgent({ funds: 0 })
        assert.strictEqual((yield* Effect.flip(service.cancel(outsider.agent, sent.id)))._tag, "CryptoPayoutNotFound")
        assert.strictEqual((yield* Effect.flip(service.get(team.id, "live", sent.id)))._tag, "CryptoPayoutNotFound")
        assert.strictEqual((yield* Effect.flip(service.get(team.id, "test", "nope")))._tag, "CryptoPayoutNotFound")
        yield* assertLedgerInvariants(team.id)
      })
    )

    it.effect("awaiting approval, it expires with its quote or its approval; the hold is released once", () =>
      Effect.gen(function* () {
        const { agent, approver, team } = yield* fundedAgent({
          funds: 100_000,
          policy: { approvalThreshold: 5_000, approvalTtlSeconds: 120 }
        })
        const service = yield* CryptoPayouts
        const byQuote = yield* service.create(agent, {
          quoteId: (yield* seedQuote(agent, approver, { amount: 6_000, ttlSeconds: 60 })).id
        })
        const byApproval = yield* service.create(agent, {
          quoteId: (yield* seedQuote(agent, approver, { amount: 6_000, ttlSeconds: 3_600 })).id
        })
        const approved = yield* payOut(agent, approver, 6_000)
        yield* service.approve(approver, approved.approval!.id, null)
        yield* TestClock.adjust("61 seconds")
        assert.isAtLeast(yield* service.expireDue, 1)
        const quoteExpired = yield* service.get(team.id, "test", byQuote.id)
        assert.strictEqual(quoteExpired.status, "expired")
        assert.strictEqual(quoteExpired.approval?.status, "expired")
        assert.strictEqual((yield* service.get(team.id, "test", byApproval.id)).status, "pending_approval")
        const late = yield* Effect.flip(service.approve(approver, byQuote.approval!.id, null))
        assert.include(["CryptoPayoutNotPending", "ApprovalStepRefused"], late._tag)

        yield* TestClock.adjust("60 seconds")
        // Read before the sweeper runs: the read expires it.
        assert.strictEqual((yield* service.get(team.id, "test", byApproval.id)).status, "expired")
        yield* service.expireDue
        assert.strictEqual((yield* service.get(team.id, "test", approved.id)).status, "pending", "approved stays")
        assert.deepStrictEqual(kinds(yield* ledgerOf(agent, byQuote.id)), ["pending", "void_pending"])
        assert.deepStrictEqual(kinds(yield* ledgerOf(agent, byApproval.id)), ["pending", "void_pending"])
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 100_000, pending: 6_000, available: 94_000 })
        yield* assertLedgerInvariants(team.id)
      })
    )

    it.effect("refuses quotes it cannot pay: expired, used, another team's, a removed destination", () =>
      Effect.gen(function* () {
        const { agent, approver } = yield* fundedAgent({ funds: 10_000 })
        const other = yield* fundedAgent({ funds: 10_000 })
        const service = yield* CryptoPayouts
        const expiring = yield* seedQuote(agent, approver, { ttlSeconds: 60 })
        yield* TestClock.adjust("60 seconds")
        const expired = yield* Effect.flip(service.create(agent, { quoteId: expiring.id }))
        assert.deepStrictEqual(expired._tag === "CryptoQuoteNotUsable" && expired.reason, "expired")
        const theirs = yield* seedQuote(other.agent, other.approver)
        assert.strictEqual(
          (yield* Effect.flip(service.create(agent, { quoteId: theirs.id })))._tag,
          "CryptoQuoteNotFound"
        )
        const unknown = yield* Effect.flip(service.create(agent, { quoteId: crypto.randomUUID() }))
        assert.strictEqual(unknown._tag, "CryptoQuoteNotFound")
        assert.strictEqual((yield* Effect.flip(service.create(agent, { quoteId: "x" })))._tag, "CryptoQuoteNotFound")
        const removed = yield* seedQuote(agent, approver, { removed: true })
        const gone = yield* Effect.flip(service.create(agent, { quoteId: removed.id }))
        assert.strictEqual(gone._tag, "CryptoDestinationNotFound")
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 10_000, pending: 0, available: 10_000 })
      })
    )

    it.effect("20 concurrent payouts of 20 quotes against a budget for 5 approve exactly 5", () =>
      Effect.gen(function* () {
        const { agent, approver, team } = yield* fundedAgent({ funds: 100_000, policy: { dailyBudget: 5_000 } })
        const quotes = yield* Effect.forEach(Array.from({ length: 20 }), () =>
          seedQuote(agent, approver, { amount: 1_000 })
        )
        const results = yield* Effect.forEach(
          quotes,
          (q) => CryptoPayouts.use((s) => s.create(agent, { quoteId: q.id })),
          { concurrency: "unbounded" }
        )
        const counts = (status: CryptoPayoutStatus) => results.filter((p) => p.status === status).length
        assert.strictEqual(counts("pending"), 5)
        assert.strictEqual(counts("denied"), 15)
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 100_000, pending: 5_000, available: 95_000 })
        yield* CryptoPayouts.use((s) => s.processDue)
        yield* CryptoPayouts.use((s) => s.processDue)
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 95_000, pending: 0, available: 95_000 })
        yield* assertLedgerInvariants(team.id)
      })
    )

    it.effect("one quote paid out concurrently ten times makes one payout", () =>
      Effect.gen(function* () {
        const { agent, approver } = yield* fundedAgent({ funds: 100_000 })
        const quote = yield* seedQuote(agent, approver)
        const exits = yield* Effect.forEach(
          Array.from({ length: 10 }),
          () => Effect.exit(CryptoPayouts.use((s) => s.create(agent, { quoteId: quote.id }))),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(exits.filter((e) => e._tag === "Success").length, 1)
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 100_000, pending: 1_000, available: 99_000 })
      })
    )

    it.effect("a crash between storing a submission and broadcasting it: one transfer, signed once, sent again", () =>
      Effect.gen(function* () {
        const { agent, approver, team } = yield* fundedAgent({ funds: 10_000 })
        yield* drain
        const { rail, calls, crash } = yield* countingRail()
        const before = yield* CryptoPayouts.make.pipe(Effect.provideService(PayoutRail, rail))
        const p = yield* payOut(agent, approver, 1_000)
        yield* crash(true)
        const died = yield* Effect.exit(before.processDue)
        assert.strictEqual(died._tag, "Failure")
        const stored = yield* CryptoPayouts.use((s) => s.get(team.id, "test", p.id))
        assert.strictEqual(stored.status, "submitted")
        assert.deepStrictEqual((yield* calls).broadcasts, [])

        yield* crash(false)
        const after = yield* CryptoPayouts.make.pipe(Effect.provideService(PayoutRail, rail))
        assert.strictEqual((yield* after.processDue).rebroadcast, 1)
        assert.strictEqual((yield* after.processDue).confirmed, 1)
        const seen = yield* calls
        assert.deepStrictEqual(seen.prepared, [stored.txHash ?? ""])
        assert.strictEqual(seen.broadcasts.length, 1)
        assert.strictEqual(seen.broadcasts[0]?.txHash, stored.txHash)
        assert.strictEqual((yield* CryptoPayouts.use((s) => s.get(team.id, "test", p.id))).status, "confirmed")
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 9_000, pending: 0, available: 9_000 })
        yield* assertLedgerInvariants(team.id)
      })
    )

    it.effect("the worker never signs a payout twice: a lost broadcast is sent again with the stored payload", () =>
      Effect.gen(function* () {
        const { agent, approver } = yield* fundedAgent({ funds: 10_000 })
        yield* drain
        const { rail, calls } = yield* countingRail({ confirmAfterPolls: 2 })
        const worker = yield* CryptoPayouts.make.pipe(Effect.provideService(PayoutRail, rail))
        const payouts = [yield* payOut(agent, approver, 1_000), yield* payOut(agent, approver, 2_000)]
        for (let round = 0; round < 5; round++) yield* worker.processDue
        const seen = yield* calls
        assert.strictEqual(seen.prepared.length, 2)
        assert.strictEqual(new Set(seen.prepared).size, 2)
        assert.strictEqual(seen.broadcasts.length, 2)
        for (const p of payouts) {
          assert.strictEqual((yield* CryptoPayouts.use((s) => s.get(agent.teamId, "test", p.id))).status, "confirmed")
        }
      })
    )
    it.effect("a cancel racing the worker: exactly one wins, and a canceled payout is never broadcast", () =>
      Effect.gen(function* () {
        yield* drain
        const { agent, approver } = yield* fundedAgent({ funds: 100_000 })
        const { rail, calls } = yield* countingRail()
        const worker = yield* CryptoPayouts.make.pipe(Effect.provideService(PayoutRail, rail))
        for (let round = 0; round < 5; round++) {
          const p = yield* payOut(agent, approver, 1_000)
          const [canceled] = yield* Effect.all([Effect.exit(worker.cancel(agent, p.id)), worker.processDue], {
            concurrency: "unbounded"
          })
          const now = yield* worker.get(agent.teamId, "test", p.id)
          const sent = (yield* calls).broadcasts.some((b) => b.txHash === now.txHash)
          if (canceled._tag === "Success") {
            assert.strictEqual(now.status, "canceled", `round ${round}`)
            assert.isNull(now.txHash)
          } else {
            assert.strictEqual(now.status, "submitted", `round ${round}`)
            assert.isTrue(sent)
          }
        }
        yield* drain
        yield* assertLedgerInvariants(agent.teamId)
      })
    )

    it.effect(
      "with new-merchant review, the first payout to an address waits; once confirmed, the address is known",
      () =>
        Effect.gen(function* () {
          const { agent, approver } = yield* fundedAgent({ funds: 100_000, policy: { reviewNewMerchants: true } })
          const service = yield* CryptoPayouts
          const address = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"
          const first = yield* service.create(agent, { quoteId: (yield* seedQuote(agent, approver, { address })).id })
          assert.strictEqual(first.status, "pending_approval")
          assert.deepStrictEqual(
            first.decision.reasons.map((r) => r.code),
            ["new_merchant"]
          )
          yield* service.approve(approver, first.approval!.id, null)
          yield* drain
          assert.strictEqual((yield* service.get(agent.teamId, "test", first.id)).status, "confirmed")
          const second = yield* service.create(agent, { quoteId: (yield* seedQuote(agent, approver, { address })).id })
          assert.strictEqual(second.status, "pending")
          const elsewhere = yield* service.create(agent, {
            quoteId: (yield* seedQuote(agent, approver, { address, network: "polygon" })).id
          })
          assert.strictEqual(
            elsewhere.status,
            "pending_approval",
            "the same address on another network is another payee"
          )
        })
    )
  })
