import { assert, layer } from "@effect/vitest"
import { PaymentCodes, paymentCodeView, type Transfer, Transfers, TransfersRepo } from "@svc/domain"
import { Clock, Effect, type Layer, Option, Result } from "effect"
import { TestClock } from "effect/testing"
import { assertLedgerInvariants } from "../ledger/LedgerSetup.ts"
import { fundedAgent } from "../spend/SpendSetup.ts"
import {
  balanceOf,
  madeBeforeCodesWereHeld,
  send,
  type TransferPorts,
  transfersDomainOver,
  twoTeams
} from "./TransferDomainSetup.ts"

/** The status a client resolving the code reads now. */
const codeStatus = (code: string) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    return paymentCodeView(yield* PaymentCodes.use((c) => c.resolve("test", code)), now).status
  })

/** Why a transfer could not take the code: the status its PaymentCodeUnusable reports. */
const refusedFor = <A, E extends { readonly _tag: string }, R>(attempt: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.flip(attempt), (e) => ("status" in e ? `${e._tag}:${e.status}` : e._tag))

/** How every adapter set runs transfers made with a payment code: one open transfer holds the code, one uses it. */
export const paymentCodeTransfersContract = <E>(name: string, ports: Layer.Layer<TransferPorts, E>) =>
  layer(transfersDomainOver(ports), { timeout: "120 seconds" })(`Transfers with payment codes (${name})`, (it) => {
    it.effect("the open transfer made with a code holds it: another is refused until the first ends", () =>
      Effect.gen(function* () {
        const { sender, recipient } = yield* twoTeams(10_000)
        const other = yield* fundedAgent({ funds: 10_000 })
        const code = yield* PaymentCodes.use((c) =>
          c.create({ teamId: recipient.team.id, mode: "test" }, { amount: 1_200, memo: "order 42" })
        )
        const to = { paymentCode: code.code }
        const wrong = yield* Effect.flip(send(sender.agent, { to, amount: 1_000 }))
        assert.strictEqual(wrong._tag, "TransferInvalid")
        const first = yield* send(sender.agent, { to, amount: 1_200 })
        assert.strictEqual(first.status, "pending_acceptance")
        assert.strictEqual(first.memo, "order 42")
        assert.strictEqual(first.paymentCode, code.code)
        assert.strictEqual(yield* codeStatus(code.code), "reserved")
        const lower = { paymentCode: code.code.toLowerCase() }
        assert.strictEqual(
          yield* refusedFor(send(other.agent, { to: lower, amount: 1_200 })),
          "PaymentCodeUnusable:reserved"
        )
        assert.deepStrictEqual(yield* balanceOf(other.agent), { posted: 10_000, pending: 0, available: 10_000 })

        yield* Transfers.use((s) => s.decline(recipient.agent, first.id))
        assert.strictEqual(yield* codeStatus(code.code), "active", "a declined transfer frees its code")
        const second = yield* send(other.agent, { to, amount: 1_200 })
        const done = yield* Transfers.use((s) => s.accept(recipient.agent, second.id))
        assert.strictEqual(done.status, "completed")
        assert.strictEqual(yield* codeStatus(code.code), "used")
        assert.strictEqual(yield* refusedFor(send(sender.agent, { to, amount: 1_200 })), "PaymentCodeUnusable:used")
        assert.deepStrictEqual(yield* balanceOf(recipient.agent), { posted: 1_200, pending: 0, available: 1_200 })
        assert.deepStrictEqual(yield* balanceOf(sender.agent), { posted: 10_000, pending: 0, available: 10_000 })
        assert.deepStrictEqual(yield* balanceOf(other.agent), { posted: 8_800, pending: 0, available: 8_800 })
        yield* assertLedgerInvariants(recipient.team.id)
      })
    )

    it.effect("canceling, expiring and denying free the code; a transfer policy denies never holds it", () =>
      Effect.gen(function* () {
        const { sender, recipient } = yield* twoTeams(100_000, { approvalThreshold: 5_000, perRequestLimit: 8_000 })
        const service = yield* Transfers
        const code = yield* PaymentCodes.use((c) =>
          c.create({ teamId: recipient.team.id, mode: "test" }, { expiresInSeconds: 30 * 86_400 })
        )
        const to = { paymentCode: code.code }
        const denied = yield* send(sender.agent, { to, amount: 9_000 })
        assert.strictEqual(denied.status, "denied")
        assert.strictEqual(yield* codeStatus(code.code), "active")

        const canceled = yield* send(sender.agent, { to })
        assert.strictEqual(yield* codeStatus(code.code), "reserved")
        yield* service.cancel(sender.agent, canceled.id)
        assert.strictEqual(yield* codeStatus(code.code), "active")

        const expiring = yield* send(sender.agent, { to })
        yield* TestClock.adjust("7 days")
        assert.strictEqual((yield* service.get(sender.team.id, "test", expiring.id)).status, "expired")
        assert.strictEqual(yield* codeStatus(code.code), "active")

        const refused = yield* send(sender.agent, { to, amount: 6_000 })
        assert.strictEqual(refused.status, "pending_approval")
        assert.strictEqual(yield* codeStatus(code.code), "reserved", "a transfer waiting for its approver holds it")
        yield* service.deny(sender.approver, refused.approval!.id, null)
        assert.strictEqual(yield* codeStatus(code.code), "active")

        const unanswered = yield* send(sender.agent, { to, amount: 6_000 })
        yield* TestClock.adjust("1 day")
        assert.strictEqual(yield* service.expireDue, 1)
        assert.strictEqual((yield* service.get(sender.team.id, "test", unanswered.id)).status, "expired")
        assert.strictEqual(yield* codeStatus(code.code), "active")
        assert.deepStrictEqual(yield* balanceOf(sender.agent), { posted: 100_000, pending: 0, available: 100_000 })
      })
    )

    it.effect("a code that expires while held stays the transfer's: its acceptance uses it", () =>
      Effect.gen(function* () {
        const { sender, recipient } = yield* twoTeams(10_000)
        const code = yield* PaymentCodes.use((c) =>
          c.create({ teamId: recipient.team.id, mode: "test" }, { expiresInSeconds: 60 })
        )
        const t = yield* send(sender.agent, { to: { paymentCode: code.code } })
        yield* TestClock.adjust("1 hour")
        assert.strictEqual(yield* codeStatus(code.code), "reserved")
        assert.strictEqual((yield* Transfers.use((s) => s.accept(recipient.agent, t.id))).status, "completed")
        assert.strictEqual(yield* codeStatus(code.code), "used")
      })
    )

    it.effect("of concurrent transfers made with one code exactly one is made; the others hold nothing", () =>
      Effect.gen(function* () {
        const recipient = yield* fundedAgent({ funds: 0 })
        const senders = yield* Effect.all(Array.from({ length: 5 }, () => fundedAgent({ funds: 5_000 })))
        const code = yield* PaymentCodes.use((c) => c.create({ teamId: recipient.team.id, mode: "test" }, {}))
        const outcomes = yield* Effect.all(
          senders.map((s) => Effect.result(send(s.agent, { to: { paymentCode: code.code } }))),
          { concurrency: "unbounded" }
        )
        const made = outcomes.filter(Result.isSuccess).map((o) => o.success)
        assert.strictEqual(made.length, 1)
        assert.deepStrictEqual(
          outcomes
            .filter(Result.isFailure)
            .map((o) => `${o.failure._tag}:${"status" in o.failure && o.failure.status}`),
          Array.from({ length: 4 }, () => "PaymentCodeUnusable:reserved")
        )
        const stored = yield* PaymentCodes.use((c) => c.resolve("test", code.code))
        assert.strictEqual(stored.reservedByTransferId, made[0]?.id)
        const held = yield* Effect.forEach(senders, (s) => balanceOf(s.agent))
        assert.deepStrictEqual(held.map((b) => b.pending).toSorted(), [0, 0, 0, 0, 1_000])
      })
    )

    it.effect("an acceptance the code refuses (a transfer made before codes were held) changes nothing", () =>
      Effect.gen(function* () {
        const { sender, recipient, address } = yield* twoTeams(10_000)
        const late = yield* fundedAgent({ funds: 10_000 })
        const service = yield* Transfers
        const code = yield* PaymentCodes.use((c) =>
          c.create({ teamId: recipient.team.id, mode: "test" }, { amount: 2_500 })
        )
        const first = yield* send(sender.agent, { to: { paymentCode: code.code }, amount: 2_500 })
        const template = yield* send(late.agent, { to: { address }, amount: 2_500 })
        yield* service.cancel(late.agent, template.id)
        const shared: Transfer = yield* madeBeforeCodesWereHeld(template, code.code)
        assert.deepStrictEqual(yield* balanceOf(late.agent), { posted: 10_000, pending: 2_500, available: 7_500 })

        assert.strictEqual(
          yield* refusedFor(service.accept(recipient.agent, shared.id)),
          "PaymentCodeUnusable:reserved"
        )
        yield* service.accept(recipient.agent, first.id)
        assert.strictEqual(yield* refusedFor(service.accept(recipient.agent, shared.id)), "PaymentCodeUnusable:used")
        const stored = yield* TransfersRepo.use((r) => r.find(shared.id))
        assert.strictEqual(Option.getOrThrow(stored).status, "pending_acceptance")
        assert.deepStrictEqual(yield* balanceOf(recipient.agent), { posted: 2_500, pending: 0, available: 2_500 })
        assert.deepStrictEqual(yield* balanceOf(late.agent), { posted: 10_000, pending: 2_500, available: 7_500 })

        assert.strictEqual((yield* service.decline(recipient.agent, shared.id)).status, "declined")
        assert.deepStrictEqual(yield* balanceOf(late.agent), { posted: 10_000, pending: 0, available: 10_000 })
        assert.strictEqual(yield* codeStatus(code.code), "used", "declining it leaves the code its user")
        yield* assertLedgerInvariants(late.team.id)
        yield* assertLedgerInvariants(recipient.team.id)
      })
    )
  })
