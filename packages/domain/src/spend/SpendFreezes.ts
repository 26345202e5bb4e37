import { Context, Effect, Layer, Option, Schema } from "effect"
import { AgentKeysRepo, type TeamPrincipal } from "../access/index.ts"
import { mayDecideApprovals } from "../approvals/index.ts"
import { domainEvents, EventOutbox } from "../platform/index.ts"
import { type Mode, newId, nowIso, type PersistenceUnavailable, type TeamId, Transactor } from "../shared/index.ts"
import { type SpendFreeze, SpendFreezeId, spendFreezeView } from "./SpendFreeze.ts"

/** Only team owners and admins freeze and lift spending. */
export class FreezeNotAllowed extends Schema.TaggedError<FreezeNotAllowed>()("FreezeNotAllowed", {
  message: Schema.String
}) {}

/** Spending of that scope (the team, or the key) is already frozen. */
export class AlreadyFrozen extends Schema.TaggedError<AlreadyFrozen>()("AlreadyFrozen", {
  freezeId: Schema.String
}) {}

/** No active freeze of that scope to lift. */
export class NotFrozen extends Schema.TaggedError<NotFrozen>()("NotFrozen", { message: Schema.String }) {}

/** The freeze names a key that is not a live key of the team. */
export class FreezeKeyNotFound extends Schema.TaggedError<FreezeKeyNotFound>()("FreezeKeyNotFound", {
  keyId: Schema.String
}) {}

/** Storage of spend freezes: at most one active freeze per team and per key. */
export class SpendFreezesRepo extends Context.Service<
  SpendFreezesRepo,
  {
    /** Stores a new active freeze; the active freeze of the same scope instead when there is one. */
    readonly insert: (freeze: SpendFreeze) => Effect.Effect<Option.Option<SpendFreeze>, PersistenceUnavailable>
    /** Lifts the active freeze of the scope (`spendingKeyId` null: the team's); none when there is none. */
    readonly lift: (
      teamId: TeamId,
      spendingKeyId: string | null,
      liftedBy: string,
      liftedAt: string
    ) => Effect.Effect<Option.Option<SpendFreeze>, PersistenceUnavailable>
    /** The team's active freezes, the team's own first, then by key. */
    readonly active: (teamId: TeamId) => Effect.Effect<ReadonlyArray<SpendFreeze>, PersistenceUnavailable>
  }
>()("@svc/domain/SpendFreezesRepo") {}

/** The kill switch: owners and admins freeze a team's (or one key's) new spending at once, and lift it. */
export class SpendFreezes extends Context.Service<
  SpendFreezes,
  {
    readonly freeze: (
      principal: TeamPrincipal,
      teamId: TeamId,
      input: { readonly spendingKeyId?: string | undefined; readonly reason: string }
    ) => Effect.Effect<SpendFreeze, FreezeNotAllowed | AlreadyFrozen | FreezeKeyNotFound | PersistenceUnavailable>
    readonly lift: (
      principal: TeamPrincipal,
      teamId: TeamId,
      spendingKeyId: string | null
    ) => Effect.Effect<SpendFreeze, FreezeNotAllowed | NotFrozen | PersistenceUnavailable>
    readonly active: SpendFreezesRepo["Service"]["active"]
  }
>()("@svc/domain/SpendFreezes") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* SpendFreezesRepo
    const keys = yield* AgentKeysRepo
    const outbox = yield* EventOutbox
    const transactor = yield* Transactor

    const allowed = (principal: TeamPrincipal) =>
      mayDecideApprovals(principal.role)
        ? Effect.void
        : Effect.fail(new FreezeNotAllowed({ message: "only team owners and admins freeze and lift spending" }))

    /** The events of a freeze's change: one per mode it covers. */
    const publish = (freeze: SpendFreeze, type: string, createdAt: string) =>
      Effect.forEach(freeze.mode === null ? (["live", "test"] as const) : [freeze.mode], (mode: Mode) =>
        domainEvents({ teamId: freeze.teamId, mode, data: spendFreezeView(freeze), createdAt }, [type])
      ).pipe(Effect.flatMap((events) => outbox.publish(...events.flat())))

    const freeze = Effect.fn("SpendFreezes.freeze")(function* (
      principal: TeamPrincipal,
      teamId: TeamId,
      input: { readonly spendingKeyId?: string | undefined; readonly reason: string }
    ) {
      yield* allowed(principal)
      const keyId = input.spendingKeyId ?? null
      let mode: Mode | null = null
      if (keyId !== null) {
        const [spending, team] = yield* Effect.all([keys.listSpendingKeys(teamId), keys.listTeamKeys(teamId)])
        const key = [...spending, ...team].find((k) => k.id === keyId && k.revokedAt === null)
        if (key === undefined) return yield* new FreezeKeyNotFound({ keyId })
        mode = key.mode
      }
      const now = yield* nowIso
      const created: SpendFreeze = {
        id: yield* newId(SpendFreezeId),
        teamId,
        spendingKeyId: keyId,
        mode,
        reason: input.reason.trim(),
        frozenBy: principal.userId,
        frozenAt: now,
        liftedBy: null,
        liftedAt: null
      }
      return yield* transactor.withTransaction(
        Effect.gen(function* () {
          const existing = yield* repo.insert(created)
          if (Option.isSome(existing)) return yield* new AlreadyFrozen({ freezeId: existing.value.id })
          yield* publish(created, "spend_freeze.created", now)
          return created
        })
      )
    })

    const lift = Effect.fn("SpendFreezes.lift")(function* (
      principal: TeamPrincipal,
      teamId: TeamId,
      spendingKeyId: string | null
    ) {
      yield* allowed(principal)
      const now = yield* nowIso
      return yield* transactor.withTransaction(
        Effect.gen(function* () {
          const lifted = yield* repo.lift(teamId, spendingKeyId, principal.userId, now)
          if (Option.isNone(lifted)) {
            return yield* new NotFrozen({
              message:
                spendingKeyId === null ? "the team's spending is not frozen" : `key ${spendingKeyId} is not frozen`
            })
          }
          yield* publish(lifted.value, "spend_freeze.lifted", now)
          return lifted.value
        })
      )
    })

    return SpendFreezes.of({ freeze, lift, active: repo.active })
  })
  static readonly layer = Layer.effect(SpendFreezes, SpendFreezes.make)
}
