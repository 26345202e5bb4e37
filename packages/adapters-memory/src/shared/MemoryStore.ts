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
  }
>()("@svc/adapters-memory/MemoryStore") {
  static readonly layer = Layer.effect(
    MemoryStore,
    Effect.gen(function* () {
      const lock = yield* Semaphore.make(1)
      const tables: Array<Ref.Ref<unknown>> = []
      const atomically = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
        Effect.gen(function* () {
          if ((yield* AfterCommit) !== undefined) return yield* self
          const hooks = yield* Ref.make<ReadonlyArray<Effect.Effect<void>>>([])
          const committed = yield* lock.withPermits(1)(
            Effect.uninterruptibleMask((restore) =>
              Effect.gen(function* () {
                const snapshot = yield* Effect.forEach(tables, Ref.get)
                const exit = yield* Effect.exit(restore(Effect.provideService(self, AfterCommit, hooks)))
                if (Exit.isFailure(exit)) {
                  yield* Effect.forEach(tables, (table, i) => Ref.set(table, snapshot[i]))
                }
                return yield* exit
              })
            )
          )
          yield* Effect.all(yield* Ref.get(hooks), { discard: true })
          return committed
        })
      return MemoryStore.of({
        table: <S>(initial: S) =>
          Ref.make(initial).pipe(Effect.tap((ref) => Effect.sync(() => tables.push(ref as Ref.Ref<unknown>)))),
        atomically
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
      afterCommit: (effect) =>
        Effect.flatMap(AfterCommit, (hooks) =>
          hooks === undefined ? effect : Ref.update(hooks, (all) => [...all, effect])
        )
    })
  })
)
