import { Transactor } from "@svc/domain"
import { Context, Effect, Exit, Layer, Ref, Semaphore } from "effect"

/** What the transaction open in context runs once it commits; none outside a transaction. */
const AfterCommit = Context.Reference<Ref.Ref<ReadonlyArray<Effect.Effect<void>>> | undefined>(
  "@svc/adapters-memory/AfterCommit",
  { defaultValue: () => undefined }
)

/** The in-memory database: tables are Refs registered here so a transaction can roll all of them back. */
export class MemoryStore extends Context.Service<
  MemoryStore,
  {
    /** A new table, restored with the others when a transaction fails. */
    readonly table: <S>(initial: S) => Effect.Effect<Ref.Ref<S>>
    /** Runs the effect serialised with every other write; on failure or interruption every table returns to its state before. */
    readonly atomically: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
    /**
     * Inside a transaction: runs the effect and, on its failure or interruption, returns every table to its state
     * before it while the transaction goes on. Outside one: `atomically`.
     */
    readonly savepoint: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  }
>()("@svc/adapters-memory/MemoryStore") {
  static readonly layer = Layer.effect(
    MemoryStore,
    Effect.gen(function* () {
      const lock = yield* Semaphore.make(1)
      const tables: Array<Ref.Ref<unknown>> = []
      /**
       * Runs `self`, putting every table (and the transaction's after-commit work, when one is open) back as it was when
       * `self` fails or is interrupted.
       */
      const undoneOnFailure = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
        Effect.uninterruptibleMask((restore) =>
          Effect.gen(function* () {
            const hooks = yield* AfterCommit
            const kept: Array<Ref.Ref<unknown>> = hooks === undefined ? tables : [...tables, hooks as Ref.Ref<unknown>]
            const snapshot = yield* Effect.forEach(kept, Ref.get)
            const exit = yield* Effect.exit(restore(self))
            if (Exit.isFailure(exit)) {
              yield* Effect.forEach(kept, (table, i) => Ref.set(table, snapshot[i]))
            }
            return yield* exit
          })
        )
      const atomically = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
        Effect.gen(function* () {
          if ((yield* AfterCommit) !== undefined) return yield* self
          const hooks = yield* Ref.make<ReadonlyArray<Effect.Effect<void>>>([])
          const committed = yield* lock.withPermits(1)(undoneOnFailure(Effect.provideService(self, AfterCommit, hooks)))
          yield* Effect.all(yield* Ref.get(hooks), { discard: true })
          return committed
        })
      return MemoryStore.of({
        table: <S>(initial: S) =>
          Ref.make(initial).pipe(Effect.tap((ref) => Effect.sync(() => tables.push(ref as Ref.Ref<unknown>)))),
        atomically,
        savepoint: <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
          Effect.flatMap(AfterCommit, (open) => (open !== undefined ? undoneOnFailure(self) : atomically(self)))
      })
    })
  )
}

/** The Transactor port over the in-memory store. */
export const TransactorMemory = Layer.effect(
  Transactor,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    return Transactor.of({
      withTransaction: store.atomically,
      withSavepoint: store.savepoint,
      afterCommit: (effect) =>
        Effect.flatMap(AfterCommit, (hooks) =>
          hooks === undefined ? effect : Ref.update(hooks, (all) => [...all, effect])
        )
    })
  })
)
