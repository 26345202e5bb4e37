import { assert, layer } from "@effect/vitest"
import { Transactor } from "@svc/domain"
import { Effect, type Layer, Ref } from "effect"

/** A list of what ran, in order, and the step that writes one entry in it. */
const journal = Effect.map(Ref.make<ReadonlyArray<string>>([]), (ran) => ({
  ran,
  note: (what: string) => Ref.update(ran, (all) => [...all, what])
}))

/** What every Transactor guarantees of the work it runs after a commit (`afterCommit`) and of its savepoints. */
export const transactorContract = <E>(name: string, ports: Layer.Layer<Transactor, E>) =>
  layer(ports)(`Transactor (${name})`, (it) => {
    it.effect("afterCommit runs at once outside a transaction", () =>
      Effect.gen(function* () {
        const transactor = yield* Transactor
        const ran = yield* Ref.make(0)
        yield* transactor.afterCommit(Ref.update(ran, (n) => n + 1))
        assert.strictEqual(yield* Ref.get(ran), 1)
      })
    )

    it.effect("inside one, once the outermost commits: not before, once for a nested transaction", () =>
      Effect.gen(function* () {
        const transactor = yield* Transactor
        const { note, ran } = yield* journal
        yield* transactor.withTransaction(
          Effect.gen(function* () {
            yield* transactor.afterCommit(note("outer"))
            yield* transactor.withTransaction(transactor.afterCommit(note("nested")))
            yield* note("work")
          })
        )
        assert.deepStrictEqual(yield* Ref.get(ran), ["work", "outer", "nested"])
      })
    )

    it.effect("never for a transaction that rolls back", () =>
      Effect.gen(function* () {
        const transactor = yield* Transactor
        const ran = yield* Ref.make(0)
        const failed = yield* Effect.flip(
          transactor.withTransaction(
            Effect.andThen(transactor.afterCommit(Ref.update(ran, (n) => n + 1)), Effect.fail("refused"))
          )
        )
        assert.strictEqual(failed, "refused")
        assert.strictEqual(yield* Ref.get(ran), 0)
      })
    )

    it.effect("a savepoint that fails drops its own after-commit work; the transaction's other work still runs", () =>
      Effect.gen(function* () {
        const transactor = yield* Transactor
        const { note, ran } = yield* journal
        yield* transactor.withTransaction(
          Effect.gen(function* () {
            yield* transactor.afterCommit(note("before"))
            const refused = yield* Effect.flip(
              transactor.withSavepoint(Effect.andThen(transactor.afterCommit(note("refused")), Effect.fail("refused")))
            )
            assert.strictEqual(refused, "refused")
            yield* transactor.withSavepoint(transactor.afterCommit(note("kept")))
          })
        )
        assert.deepStrictEqual(yield* Ref.get(ran), ["before", "kept"])
      })
    )
  })
