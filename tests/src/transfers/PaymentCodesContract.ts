import { assert, layer } from "@effect/vitest"
import { PaymentCodes, paymentCodeView, Transactor } from "@svc/domain"
import { Clock, Effect, Exit, type Layer } from "effect"
import { TestClock } from "effect/testing"
import { createTeam, type TransfersPorts, transfersOver } from "./TransfersSetup.ts"

/** What a transfer will do with a code: lock it and mark it used, in one transaction. */
const useOnce = (mode: "live" | "test", code: string, transferId: string) =>
  Effect.gen(function* () {
    const codes = yield* PaymentCodes
    const transactor = yield* Transactor
    return yield* transactor.withTransaction(
      Effect.flatMap(codes.lockForUse(mode, code), (locked) => codes.markUsed(locked, transferId))
    )
  })

/** The behaviour payment codes show on every adapter. */
export const paymentCodesContract = <E>(name: string, ports: Layer.Layer<TransfersPorts, E>) =>
  layer(transfersOver(ports), { timeout: "60 seconds" })(`payment codes (${name})`, (it) => {
    it.effect("a new code pays to its team's address in its mode, with what the recipient fixed", () =>
      Effect.gen(function* () {
        const team = yield* createTeam("Payee")
        const codes = yield* PaymentCodes
        const code = yield* codes.create(
          { teamId: team.id, mode: "test" },
          { amount: 2_500, memo: "invoice 42", expiresInSeconds: 3_600 }
        )
        const now = yield* Clock.currentTimeMillis
        assert.match(code.code, /^PC-[23456789A-HJKMNP-Z]{8}$/u)
        assert.deepStrictEqual(yield* codes.resolve("test", code.code), code)
        assert.deepStrictEqual(yield* codes.resolve("test", code.code.toLowerCase()), code)
        const view = paymentCodeView(code, now)
        assert.strictEqual(view.address, `${code.handle}@test.svc`)
        assert.deepStrictEqual(
          { ...view, address: undefined },
          {
            object: "payment_code",
            code: code.code,
            address: undefined,
            teamName: "Payee",
            mode: "test",
            amount: 2_500,
            currency: "USD",
            memo: "invoice 42",
            status: "active",
            expiresAt: new Date(now + 3_600_000).toISOString(),
            usedAt: null,
            createdAt: new Date(now).toISOString()
          }
        )
        const open = yield* codes.create({ teamId: team.id, mode: "live" }, {})
        assert.strictEqual(open.amount, null)
        assert.strictEqual(open.memo, null)
        assert.strictEqual(open.expiresAt, new Date(now + 7 * 86_400_000).toISOString(), "7 days by default")
        assert.notStrictEqual(open.code, code.code)
      })
    )

    it.effect("a code is not found from the other mode, nor when unknown or malformed", () =>
      Effect.gen(function* () {
        const team = yield* createTeam("Payee")
        const codes = yield* PaymentCodes
        const code = yield* codes.create({ teamId: team.id, mode: "test" }, {})
        for (const [mode, text] of [
          ["live", code.code],
          ["test", "PC-22222222"],
          ["test", "nonsense"]
        ] as const) {
          assert.strictEqual((yield* Effect.flip(codes.resolve(mode, text)))._tag, "PaymentCodeNotFound")
          assert.strictEqual((yield* Effect.flip(codes.lockForUse(mode, text)))._tag, "PaymentCodeNotFound")
        }
      })
    )

    it.effect("a code is used once: the use is kept with its transfer; a second use is refused as used", () =>
      Effect.gen(function* () {
        const team = yield* createTeam("Payee")
        const codes = yield* PaymentCodes
        const code = yield* codes.create({ teamId: team.id, mode: "test" }, { amount: 100 })
        const transferId = crypto.randomUUID()
        const used = yield* useOnce("test", code.code, transferId)
        const now = yield* Clock.currentTimeMillis
        assert.deepStrictEqual(used, { ...code, usedAt: new Date(now).toISOString(), usedByTransferId: transferId })
        assert.deepStrictEqual(yield* codes.resolve("test", code.code), used)
        assert.strictEqual(paymentCodeView(used, now).status, "used")
        const again = yield* Effect.flip(useOnce("test", code.code, crypto.randomUUID()))
        assert.deepStrictEqual(again._tag === "PaymentCodeUnusable" && again.status, "used")
        const marked = yield* Effect.flip(codes.markUsed(code, crypto.randomUUID()))
        assert.deepStrictEqual(marked._tag === "PaymentCodeUnusable" && marked.status, "used")
        assert.deepStrictEqual(yield* codes.resolve("test", code.code), used, "the first use stands")
      })
    )

    it.effect("a use in a transaction that fails is undone: the code stays active", () =>
      Effect.gen(function* () {
        const team = yield* createTeam("Payee")
        const codes = yield* PaymentCodes
        const transactor = yield* Transactor
        const code = yield* codes.create({ teamId: team.id, mode: "live" }, {})
        const exit = yield* Effect.exit(
          transactor.withTransaction(
            Effect.gen(function* () {
              yield* codes.markUsed(yield* codes.lockForUse("live", code.code), crypto.randomUUID())
              return yield* Effect.fail("the transfer failed after using the code" as const)
            })
          )
        )
        assert.isTrue(Exit.isFailure(exit))
        assert.deepStrictEqual(yield* codes.resolve("live", code.code), code)
      })
    )

    it.effect("of concurrent uses of one code exactly one wins", () =>
      Effect.gen(function* () {
        const team = yield* createTeam("Payee")
        const code = yield* PaymentCodes.use((codes) => codes.create({ teamId: team.id, mode: "test" }, {}))
        const outcomes = yield* Effect.all(
          Array.from({ length: 5 }, () => Effect.exit(useOnce("test", code.code, crypto.randomUUID()))),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(outcomes.filter(Exit.isSuccess).length, 1)
      })
    )

    it.effect("an active code reads expired from its expiry on, and can no longer be used; a used one stays used", () =>
      Effect.gen(function* () {
        const team = yield* createTeam("Payee")
        const codes = yield* PaymentCodes
        const expiring = yield* codes.create({ teamId: team.id, mode: "test" }, { expiresInSeconds: 60 })
        const usedEarly = yield* codes.create({ teamId: team.id, mode: "test" }, { expiresInSeconds: 60 })
        yield* useOnce("test", usedEarly.code, crypto.randomUUID())
        const statusOf = (text: string) =>
          Effect.gen(function* () {
            const code = yield* codes.resolve("test", text)
            return paymentCodeView(code, yield* Clock.currentTimeMillis).status
          })
        yield* TestClock.adjust("59 seconds")
        assert.strictEqual(yield* statusOf(expiring.code), "active")
        yield* TestClock.adjust("1 second")
        assert.strictEqual(yield* statusOf(expiring.code), "expired")
        assert.strictEqual(yield* statusOf(usedEarly.code), "used")
        const refused = yield* Effect.flip(useOnce("test", expiring.code, crypto.randomUUID()))
        assert.deepStrictEqual(refused._tag === "PaymentCodeUnusable" && refused.status, "expired")
      })
    )
  })
