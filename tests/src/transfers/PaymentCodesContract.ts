import { assert, layer } from "@effect/vitest"
import { type PaymentCode, PaymentCodes, paymentCodeView, Transactor } from "@svc/domain"
import { Clock, Effect, Exit, type Layer } from "effect"
import { TestClock } from "effect/testing"
import { createTeam, type TransfersPorts, transfersOver } from "./TransfersSetup.ts"

/** Runs `f` over the codes service in one transaction, as a transfer's creation, acceptance or ending does. */
const inTransaction = <A, E>(f: (codes: PaymentCodes["Service"]) => Effect.Effect<A, E>) =>
  Effect.gen(function* () {
    const codes = yield* PaymentCodes
    const transactor = yield* Transactor
    return yield* transactor.withTransaction(f(codes))
  })

const reserve = (code: PaymentCode, transferId: string) => inTransaction((codes) => codes.reserve(code, transferId))
const use = (code: PaymentCode, transferId: string) => inTransaction((codes) => codes.use(code.code, transferId))
const release = (code: PaymentCode, transferId: string) =>
  inTransaction((codes) => codes.release(code.code, transferId))

/** Why taking the code failed: the status a PaymentCodeUnusable reports, else the error's tag. */
const refusal = <A, E extends { readonly _tag: string }, R>(attempt: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.flip(attempt), (e) => ("status" in e ? e.status : e._tag))

const statusOf = (code: PaymentCode) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    return paymentCodeView(yield* PaymentCodes.use((codes) => codes.resolve(code.mode, code.code)), now).status
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
        assert.isNull(code.reservedByTransferId)
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
        }
        assert.strictEqual(
          yield* refusal(inTransaction((c) => c.use("PC-22222222", crypto.randomUUID()))),
          "PaymentCodeNotFound"
        )
      })
    )

    it.effect("one open transfer holds a code: others are refused until it frees it; used once, it stays used", () =>
      Effect.gen(function* () {
        const team = yield* createTeam("Payee")
        const code = yield* PaymentCodes.use((codes) => codes.create({ teamId: team.id, mode: "test" }, {}))
        const [first, second, third] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()]
        assert.deepStrictEqual(yield* reserve(code, first), { ...code, reservedByTransferId: first })
        assert.strictEqual(yield* statusOf(code), "reserved")
        assert.strictEqual(yield* refusal(reserve(code, second)), "reserved")
        assert.strictEqual(yield* refusal(use(code, second)), "reserved")
        yield* release(code, second)
        assert.strictEqual(yield* statusOf(code), "reserved", "only its holder frees a code")

        yield* release(code, first)
        assert.strictEqual(yield* statusOf(code), "active")
        yield* reserve(code, second)
        const used = yield* use(code, second)
        const now = yield* Clock.currentTimeMillis
        assert.deepStrictEqual(used, {
          ...code,
          usedAt: new Date(now).toISOString(),
          usedByTransferId: second,
          reservedByTransferId: null
        })
        assert.strictEqual(yield* statusOf(code), "used")
        assert.strictEqual(yield* refusal(reserve(code, third)), "used")
        assert.strictEqual(yield* refusal(use(code, first)), "used")
        yield* release(code, second)
        assert.deepStrictEqual(yield* PaymentCodes.use((c) => c.resolve("test", code.code)), used, "the use stands")
      })
    )

    it.effect("a code no transfer holds (a transfer made before codes were held) is used by the first accepted", () =>
      Effect.gen(function* () {
        const team = yield* createTeam("Payee")
        const code = yield* PaymentCodes.use((codes) => codes.create({ teamId: team.id, mode: "test" }, {}))
        const [early, late] = [crypto.randomUUID(), crypto.randomUUID()]
        assert.strictEqual((yield* use(code, early)).usedByTransferId, early)
        assert.strictEqual(yield* refusal(use(code, late)), "used")
      })
    )

    it.effect("a take in a transaction that fails is undone: the code stays active", () =>
      Effect.gen(function* () {
        const team = yield* createTeam("Payee")
        const code = yield* PaymentCodes.use((codes) => codes.create({ teamId: team.id, mode: "live" }, {}))
        for (const take of [reserve, use]) {
          const exit = yield* Effect.exit(
            Effect.gen(function* () {
              const transactor = yield* Transactor
              return yield* transactor.withTransaction(
                Effect.andThen(
                  take(code, crypto.randomUUID()),
                  Effect.fail("the transfer failed after taking the code")
                )
              )
            })
          )
          assert.isTrue(Exit.isFailure(exit))
          assert.deepStrictEqual(yield* PaymentCodes.use((c) => c.resolve("live", code.code)), code)
        }
      })
    )

    it.effect("of concurrent reservations of one code exactly one holds it", () =>
      Effect.gen(function* () {
        const team = yield* createTeam("Payee")
        const code = yield* PaymentCodes.use((codes) => codes.create({ teamId: team.id, mode: "test" }, {}))
        const outcomes = yield* Effect.all(
          Array.from({ length: 5 }, () => Effect.exit(reserve(code, crypto.randomUUID()))),
          { concurrency: "unbounded" }
        )
        const held = outcomes.filter(Exit.isSuccess)
        assert.strictEqual(held.length, 1)
        const stored = yield* PaymentCodes.use((c) => c.resolve("test", code.code))
        assert.strictEqual(stored.reservedByTransferId, held[0]?.value.reservedByTransferId)
      })
    )

    it.effect(
      "expiry ends a free code; a held one stays held past it, and its holder uses it or frees it expired",
      () =>
        Effect.gen(function* () {
          const team = yield* createTeam("Payee")
          const codes = yield* PaymentCodes
          const create = codes.create({ teamId: team.id, mode: "test" }, { expiresInSeconds: 60 })
          const [free, heldThenUsed, heldThenFreed, usedEarly] = [
            yield* create,
            yield* create,
            yield* create,
            yield* create
          ]
          const [a, b, c] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()]
          yield* reserve(heldThenUsed, a)
          yield* reserve(heldThenFreed, b)
          yield* reserve(usedEarly, c)
          yield* use(usedEarly, c)
          yield* TestClock.adjust("59 seconds")
          assert.strictEqual(yield* statusOf(free), "active")
          yield* TestClock.adjust("1 second")
          assert.deepStrictEqual(
            [yield* statusOf(free), yield* statusOf(heldThenUsed), yield* statusOf(usedEarly)],
            ["expired", "reserved", "used"]
          )
          assert.strictEqual(yield* refusal(reserve(free, crypto.randomUUID())), "expired")
          assert.strictEqual(yield* refusal(use(free, crypto.randomUUID())), "expired")
          assert.strictEqual((yield* use(heldThenUsed, a)).usedByTransferId, a)
          yield* release(heldThenFreed, b)
          assert.strictEqual(yield* statusOf(heldThenFreed), "expired")
        })
    )
  })
