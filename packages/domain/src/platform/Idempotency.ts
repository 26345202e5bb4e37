import { type Array as Arr, Context, Data, type Duration, Effect, type Option, Schema } from "effect"
import { cutoffBefore, periodicJob, sha256, toHex } from "../shared/index.ts"
import type { Mode, PersistenceUnavailable, TeamId } from "../shared/model.ts"

/** Where an idempotency key lives: the same key under another team, mode, credential, method or path is another key. */
export interface IdempotencyScope {
  readonly teamId: TeamId
  readonly mode: Mode
  readonly credentialId: string
  readonly method: string
  readonly path: string
  readonly key: string
}

/** The scope as one unambiguous string, for locks and maps. */
export const scopeText = (scope: IdempotencyScope): string =>
  JSON.stringify([scope.teamId, scope.mode, scope.credentialId, scope.method, scope.path, scope.key])

/**
 * The first response to an idempotent request as HTTP rendered it, replayed byte for byte to retries with the same body.
 * It must never hold card numbers, CVCs or secrets: only routes whose responses carry none may be idempotent.
 */
export const StoredResponse = Schema.Struct({
  /** SHA-256 hex of the request body bytes. */
  fingerprint: Schema.String,
  status: Schema.Int.check(Schema.isBetween({ minimum: 100, maximum: 599 })),
  /** Response headers worth replaying (content-type), lower-case names. */
  headers: Schema.Record(Schema.String, Schema.String),
  body: Schema.Uint8Array,
  createdAt: Schema.String
})
export type StoredResponse = typeof StoredResponse.Type

/**
 * The outcome of a write done at most once per key, in the JSON form of its domain's Schema (ADR 0047): the domain
 * stores it with its work, and the adapter that took the request renders it, on the first answer and on every retry
 * with the same body. Like a `StoredResponse`, it never holds card numbers, CVCs or secrets.
 */
export const StoredOutcome = Schema.Struct({
  /** SHA-256 hex of the request body bytes. */
  fingerprint: Schema.String,
  outcome: Schema.Json,
  createdAt: Schema.String
})
export type StoredOutcome = typeof StoredOutcome.Type

/** What an idempotency key's first request left: its rendered response, or the outcome its domain stored. */
export const StoredAnswer = Schema.Union([StoredResponse, StoredOutcome])
export type StoredAnswer = typeof StoredAnswer.Type

/** Whether a stored answer is a domain's outcome (rendered by the adapter) rather than a rendered response. */
export const isStoredOutcome = (answer: StoredAnswer): answer is StoredOutcome => "outcome" in answer

/** The SHA-256 hex fingerprint of a request body. */
export const fingerprintBody = (body: Uint8Array): Effect.Effect<string> => Effect.map(sha256(body), toHex)

/** A request with the same key is still running: the caller answers that the key is in use, and the client retries. */
export class IdempotencyKeyInUse extends Data.TaggedError("IdempotencyKeyInUse")<{}> {}

/** A request with the same key finished first: this one did no work, and that request's answer stands. */
export class AnsweredMeanwhile extends Data.TaggedError("AnsweredMeanwhile")<{ readonly answer: StoredAnswer }> {}

/**
 * What a write done at most once per key needs: the key's scope and the fingerprint of the request's body, stored with
 * the write's outcome so a retry with another body under the same key is told apart.
 */
export interface OnceWrite {
  readonly scope: IdempotencyScope
  readonly fingerprint: string
}

/** Stored first answers of idempotent requests, and the lock that keeps two of them from running at once. */
export class IdempotencyStore extends Context.Service<
  IdempotencyStore,
  {
    /**
     * Runs `self` in one transaction while holding the scope's lock, without waiting for it: none when another request
     * holds it. The lock is released when the transaction ends (commit, rollback, or a dead connection).
     */
    readonly exclusive: <A, E, R>(
      scope: IdempotencyScope,
      self: Effect.Effect<A, E, R>
    ) => Effect.Effect<Option.Option<A>, E | PersistenceUnavailable, R>
    /**
     * Runs `self` in one transaction holding the lock of every scope it could take without waiting. `held` resolves
     * to whether each lock is held (`held[i]` for `scopes[i]`; a scope listed twice is held by its first listing
     * only); `self` may issue other statements of the transaction before it awaits `held`, which then travel
     * together. The locks are released when the transaction ends.
     */
    readonly exclusiveEach: <A, E, R>(
      scopes: ReadonlyArray<IdempotencyScope>,
      self: (held: Effect.Effect<ReadonlyArray<boolean>, PersistenceUnavailable>) => Effect.Effect<A, E, R>
    ) => Effect.Effect<A, E | PersistenceUnavailable, R>
    /** The stored answer of a scope, if any. */
    readonly find: (scope: IdempotencyScope) => Effect.Effect<Option.Option<StoredAnswer>, PersistenceUnavailable>
    /**
     * Stores the answer of a scope; call inside `exclusive` so it commits with the request's work. False, storing
     * nothing, when the scope already has an answer: a request with the same key finished first, so this one's work
     * must roll back and that answer stands.
     */
    readonly save: (scope: IdempotencyScope, response: StoredAnswer) => Effect.Effect<boolean, PersistenceUnavailable>
    /** `save` of many answers in one write; `saved[i]` is what `save` would return for `answers[i]`. */
    readonly saveEach: (
      answers: Arr.NonEmptyReadonlyArray<{ readonly scope: IdempotencyScope; readonly response: StoredAnswer }>
    ) => Effect.Effect<ReadonlyArray<boolean>, PersistenceUnavailable>
    /** Deletes answers created before the cutoff (ISO timestamp); returns how many. */
    readonly purgeCreatedBefore: (cutoff: string) => Effect.Effect<number, PersistenceUnavailable>
  }
>()("@svc/domain/IdempotencyStore") {}

/** Deletes stored responses older than the time to live, by the effect clock. */
export const purgeExpiredResponses = (ttl: Duration.Input) =>
  Effect.gen(function* () {
    const store = yield* IdempotencyStore
    return yield* store.purgeCreatedBefore(yield* cutoffBefore(ttl))
  })

/** A background job that purges expired idempotency responses every `interval` for as long as the layer lives. */
export const IdempotencyPurgeJob = (options: { readonly ttl: Duration.Input; readonly interval: Duration.Input }) =>
  periodicJob("idempotency purge", purgeExpiredResponses(options.ttl), options.interval)
