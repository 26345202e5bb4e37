import { assert, layer } from "@effect/vitest"
import { ReceiveAddresses, type Transfer, Transfers } from "@svc/domain"
import { Effect, type Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { assertLedgerInvariants } from "../ledger/LedgerSetup.ts"
import { fundedAgent } from "../spend/SpendSetup.ts"
import { balanceOf, send, type TransferPorts, transfersDomainOver, twoTeams } from "./TransferDomainSetup.ts"

/** How every adapter set runs book transfers: money held, then posted or released exactly once, one winner. */
export const transfersContract = <E>(name: string, ports: Layer.Layer<TransferPorts, E>) =>
  layer(transfersDomainOver(ports), { timeout: "120 seconds" })(`Book transfers (${name})`, (it) => {
    it.effect("holds the amount on the sender, pays the recipient on accept, and nothing shows before", () =>
      Effect.gen(function* () {
        const { sender, recipient, address } = yield* twoTeams(10_000)
        const t = yield* send(sender.agent, { to: { address }, amount: 2_500, memo: "invoice 7" })
        assert.strictEqual(t.status, "pending_acceptance")
        assert.strictEqual(t.memo, "invoice 7")
        assert.isNotNull(t.expiresAt)
        assert.deepStrictEqual(yield* balanceOf(sender.agent), { posted: 10_000, pending: 2_500, available: 7_500 })
        assert.deepStrictEqual(yield* balanceOf(recipient.agent), { posted: 0, pending: 0, available: 0 })
        const incoming = yield* Transfers.use((s) =>
          s.list(recipient.team.id, { mode: "test", direction: "incoming" }, { limit: 10, after: Option.none() })
        )
        assert.deepStrictEqual(
          incoming.map((x) => x.id),
          [t.id]
        )
        const done = yield* Transfers.use((s) => s.accept(recipient.agent, t.id))
        assert.strictEqual(done.status, "completed")
        assert.isNull(done.expiresAt)
        assert.deepStrictEqual(yield* balanceOf(sender.agent), { posted: 7_500, pending: 0, available: 7_500 })
        assert.deepStrictEqual(yield* balanceOf(recipient.agent), { posted: 2_500, pending: 0, available: 2_500 })
        yield* assertLedgerInvariants(sender.team.id)
        yield* assertLedgerInvariants(recipient.team.id)
      })
    )

    it.effect("decline, cancel and expiry release the hold once; final transfers refuse every transition", () =>
      Effect.gen(function* () {
        const { sender, recipient, address } = yield* twoTeams(10_000)
        const service = yield* Transfers
        const declined = yield* service.decline(recipient.agent, (yield* send(sender.agent, { to: { address } })).id)
        const canceled = yield* service.cancel(sender.agent, (yield* send(sender.agent, { to: { address } })).id)
        const expiring = yield* send(sender.agent, { to: { address } })
        yield* TestClock.adjust("7 days")
        const expired = yield* service.get(sender.team.id, "test", expiring.id)
        assert.deepStrictEqual([declined.status, canceled.status, expired.status], ["declined", "canceled", "expired"])
        assert.deepStrictEqual(yield* balanceOf(sender.agent), { posted: 10_000, pending: 0, available: 10_000 })
        for (const t of [declined, canceled, expired]) {
          for (const attempt of [
            service.accept(recipient.agent, t.id),
            service.decline(recipient.agent, t.id),
            service.cancel(sender.agent, t.id)
          ]) {
            const refused = yield* Effect.flip(attempt)
            assert.strictEqual(refused._tag, "TransferNotPending")
          }
        }
        yield* assertLedgerInvariants(sender.team.id)
        yield* assertLedgerInvariants(recipient.team.id)
      })
    )

    it.effect("only the recipient accepts or declines, only the sender cancels, other teams see nothing", () =>
      Effect.gen(function* () {
        const { sender, recipient, address } = yield* twoTeams(10_000)
        const outsider = yield* fundedAgent({ funds: 0 })
        const service = yield* Transfers
        const t = yield* send(sender.agent, { to: { address } })
        assert.strictEqual((yield* Effect.flip(service.accept(sender.agent, t.id)))._tag, "TransferWrongParty")
        assert.strictEqual((yield* Effect.flip(service.decline(sender.agent, t.id)))._tag, "TransferWrongParty")
        assert.strictEqual((yield* Effect.flip(service.cancel(recipient.agent, t.id)))._tag, "TransferWrongParty")
        assert.strictEqual((yield* Effect.flip(service.accept(outsider.agent, t.id)))._tag, "TransferNotFound")
        assert.strictEqual((yield* Effect.flip(service.get(outsider.team.id, "test", t.id)))._tag, "TransferNotFound")
        assert.strictEqual((yield* Effect.flip(service.get(sender.team.id, "live", t.id)))._tag, "TransferNotFound")
      })
    )

    it.effect("refuses bad input naming the field, and moves nothing", () =>
      Effect.gen(function* () {
        const { sender, address } = yield* twoTeams(10_000)
        const own = (yield* ReceiveAddresses.use((a) => a.own(sender.team.id, "test"))).address
        const refusals = [
          [{ to: { address: own } }, "TransferInvalid", "to"],
          [{ to: { address }, currency: "EUR" }, "TransferInvalid", "currency"],
          [{ to: { address }, amount: 0 }, "TransferInvalid", "amount"],
          [{ to: { address }, amount: 1.5 }, "TransferInvalid", "amount"],
          [{ to: { address }, memo: "x".repeat(501) }, "TransferInvalid", "memo"],
          [{ to: { address: "nobody-2222@test.svc" } }, "ReceiveAddressNotFound", undefined],
          [{ to: { address: address.replace("@test.svc", "@svc") } }, "ReceiveAddressNotFound", undefined],
          [{ to: { paymentCode: "PC-22222222" } }, "PaymentCodeNotFound", undefined]
        ] as const
        for (const [input, tag, field] of refusals) {
          const refused = yield* Effect.flip(send(sender.agent, input))
          assert.strictEqual(refused._tag, tag, JSON.stringify(input))
          if (field !== undefined) assert.strictEqual((refused as { field?: string }).field, field)
        }
        assert.deepStrictEqual(yield* balanceOf(sender.agent), { posted: 10_000, pending: 0, available: 10_000 })
      })
    )

    it.effect("policy decides as for spend: over the threshold it waits for an approver; budgets are shared", () =>
      Effect.gen(function* () {
        const { sender, recipient, address } = yield* twoTeams(100_000, {
          approvalThreshold: 5_000,
          dailyBudget: 12_000
        })
        const service = yield* Transfers
        const big = yield* send(sender.agent, { to: { address }, amount: 6_000 })
        assert.strictEqual(big.status, "pending_approval")
        assert.isNotNull(big.approval)
        // Until its approver lets it go, the transfer concerns its sender alone.
        const unseen = yield* Effect.flip(service.get(recipient.team.id, "test", big.id))
        assert.strictEqual(unseen._tag, "TransferNotFound")
        const approved = yield* service.approve(sender.approver, big.approval!.id, "ok")
        assert.strictEqual(approved.status, "pending_acceptance")
        assert.strictEqual((yield* service.get(recipient.team.id, "test", big.id)).id, big.id)
        const denied = yield* send(sender.agent, { to: { address }, amount: 5_500 })
        const refused = yield* service.deny(sender.approver, denied.approval!.id, "no")
        assert.strictEqual(refused.status, "denied")
        const incoming = yield* service.list(
          recipient.team.id,
          { mode: "test", direction: "incoming" },
          { limit: 10, after: Option.none() }
        )
        assert.deepStrictEqual(
          incoming.map((t) => t.id),
          [big.id]
        )
        const overBudget = yield* send(sender.agent, { to: { address }, amount: 4_000 })
        assert.strictEqual(overBudget.status, "pending_acceptance")
        const overDaily = yield* send(sender.agent, { to: { address }, amount: 2_500 })
        assert.strictEqual(overDaily.status, "denied")
        assert.include(
          overDaily.decision.reasons.map((r) => r.code),
          "daily_budget_exceeded"
        )
        yield* service.accept(recipient.agent, approved.id)
        assert.deepStrictEqual(yield* balanceOf(sender.agent), { posted: 94_000, pending: 4_000, available: 90_000 })
        yield* assertLedgerInvariants(sender.team.id)
      })
    )

    it.effect("50 concurrent transfers of 10.00 against 200.00 hold exactly 20; nothing overdraws", () =>
      Effect.gen(function* () {
        const { sender, address } = yield* twoTeams(20_000)
        const results = yield* Effect.forEach(
          Array.from({ length: 50 }),
          () => send(sender.agent, { to: { address }, amount: 1_000 }),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(results.filter((t) => t.status === "pending_acceptance").length, 20)
        assert.isTrue(
          results
            .filter((t) => t.status === "denied")
            .every((t) => t.decision.reasons.some((r) => r.code === "insufficient_funds"))
        )
        assert.deepStrictEqual(yield* balanceOf(sender.agent), { posted: 20_000, pending: 20_000, available: 0 })
        yield* assertLedgerInvariants(sender.team.id)
      })
    )

    it.effect("concurrent accept, decline, cancel and expiry of one transfer: exactly one wins", () =>
      Effect.gen(function* () {
        const { sender, recipient, address } = yield* twoTeams(50_000)
        const service = yield* Transfers
        for (let round = 0; round < 5; round++) {
          const t: Transfer = yield* send(sender.agent, { to: { address } })
          const outcomes = yield* Effect.all(
            [
              service.accept(recipient.agent, t.id),
              service.decline(recipient.agent, t.id),
              service.cancel(sender.agent, t.id),
              service.expireDue
            ].map((attempt: Effect.Effect<unknown, unknown>) => Effect.exit(attempt)),
            { concurrency: "unbounded" }
          )
          const won = outcomes.slice(0, 3).filter((o) => o._tag === "Success")
          assert.strictEqual(won.length, 1, `round ${round}`)
        }
        yield* assertLedgerInvariants(sender.team.id)
        yield* assertLedgerInvariants(recipient.team.id)
        const total = (yield* balanceOf(sender.agent)).posted + (yield* balanceOf(recipient.agent)).posted
        assert.strictEqual(total, 50_000)
      })
    )

    it.effect(
      "with new-merchant review, the first transfer to an address waits for approval; once paid, it is known",
      () =>
        Effect.gen(function* () {
          const { sender, recipient, address } = yield* twoTeams(10_000, { reviewNewMerchants: true })
          const first = yield* send(sender.agent, { to: { address }, amount: 100 })
          assert.strictEqual(first.status, "pending_approval")
          assert.deepStrictEqual(
            first.decision.reasons.map((r) => r.code),
            ["new_merchant"]
          )
          const approved = yield* Transfers.use((s) => s.approve(sender.approver, first.approval!.id, null))
          assert.strictEqual(approved.status, "pending_acceptance")
          const second = yield* send(sender.agent, { to: { address }, amount: 100 })
          assert.strictEqual(second.status, "pending_approval", "approved but not yet paid: still new")
          yield* Transfers.use((s) => s.accept(recipient.agent, first.id))
          const third = yield* send(sender.agent, { to: { address }, amount: 100 })
          assert.strictEqual(third.status, "pending_acceptance")
          assert.deepStrictEqual(third.decision.reasons, [])
        })
    )
  })
