import { Context, Effect, Layer, Option } from "effect"
import { newId, nowIso, type PersistenceUnavailable, type TeamId, Transactor } from "../../shared/index.ts"
import { BankAccountsRepo } from "../banking/index.ts"
import { TagsRepo } from "../tags/index.ts"
import { CategoriesRepo } from "./CategoriesRepo.ts"
import { bulkUpdateOf, type UpdateStep } from "./internal/BulkUpdates.ts"
import {
  changesOf,
  filterOf,
  newManualTransaction,
  referencesOf,
  type TransactionReferences
} from "./internal/TransactionReferences.ts"
import { AttachmentId, type TransactionAttachment, type TransactionDetails, type TransactionId } from "./Transaction.ts"
import {
  TransactionAttachmentNotFound,
  type TransactionInvalid,
  TransactionNotFound,
  type TransactionReferenceNotFound
} from "./TransactionErrors.ts"
import type {
  BulkUpdate,
  CreateTransaction,
  CreateTransactionAttachment,
  TransactionQuery,
  UpdateTransaction
} from "./TransactionInput.ts"
import { type TransactionPage, transactionPageOf, transactionSortOf, transactionStartOf } from "./TransactionPaging.ts"
import { attachmentPathRefusal, isUuidText } from "./TransactionRules.ts"
import { TransactionsRepo } from "./TransactionsRepo.ts"

type Failure = TransactionInvalid | TransactionReferenceNotFound | PersistenceUnavailable

/** Business-finance transactions of a team: manual ones kept by users, imported ones fed by bank connections. */
export class Transactions extends Context.Service<
  Transactions,
  {
    /** A page of the team's transactions matching the query, in its order (date or amount, then id). */
    readonly list: (teamId: TeamId, query: TransactionQuery) => Effect.Effect<TransactionPage, Failure>
    readonly get: (
      teamId: TeamId,
      id: TransactionId
    ) => Effect.Effect<TransactionDetails, TransactionNotFound | PersistenceUnavailable>
    /** Records a manual transaction. */
    readonly create: (teamId: TeamId, input: CreateTransaction) => Effect.Effect<TransactionDetails, Failure>
    /** Records every transaction or none: a refused item names its index in the field (`2.amount`). */
    readonly createMany: (
      teamId: TeamId,
      inputs: ReadonlyArray<CreateTransaction>
    ) => Effect.Effect<ReadonlyArray<TransactionDetails>, Failure>
    readonly update: (
      teamId: TeamId,
      id: TransactionId,
      changes: UpdateTransaction
    ) => Effect.Effect<TransactionDetails, Failure | TransactionNotFound>
    /**
     * Applies every change or none: each item's of the array form, or the twin's `{ids, ...changes}` to each of its
     * ids (its `tagId` added to each transaction's tags).
     */
    readonly updateMany: (
      teamId: TeamId,
      request: BulkUpdate
    ) => Effect.Effect<ReadonlyArray<TransactionDetails>, Failure | TransactionNotFound>
    /** Deletes the transaction (with its tags and attachments) and answers it as it was. */
    readonly remove: (
      teamId: TeamId,
      id: TransactionId
    ) => Effect.Effect<TransactionDetails, TransactionNotFound | PersistenceUnavailable>
    /** Deletes every transaction or none (an unknown id names its index). */
    readonly removeMany: (
      teamId: TeamId,
      ids: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlyArray<TransactionId>, TransactionNotFound | PersistenceUnavailable>
    /** Attaches a stored file of the team (its path starts with the team id) to the transaction. */
    readonly addAttachment: (
      teamId: TeamId,
      id: TransactionId,
      input: CreateTransactionAttachment
    ) => Effect.Effect<TransactionAttachment, TransactionInvalid | TransactionNotFound | PersistenceUnavailable>
    /** Detaches the file (the stored file stays) and answers the attachment as it was. */
    readonly removeAttachment: (
      teamId: TeamId,
      id: TransactionId,
      attachmentId: string
    ) => Effect.Effect<TransactionAttachment, TransactionAttachmentNotFound | PersistenceUnavailable>
  }
>()("@svc/domain/Transactions") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* TransactionsRepo
    const ports = { categories: yield* CategoriesRepo, tags: yield* TagsRepo, accounts: yield* BankAccountsRepo }
    const transactor = yield* Transactor

    const found = (teamId: TeamId, id: string, field: string | null) =>
      Effect.flatMap(
        isUuidText(id) ? repo.find(teamId, id as TransactionId) : Effect.succeed(Option.none()),
        Option.match({
          onNone: () => Effect.fail(new TransactionNotFound({ transactionId: id, field })),
          onSome: Effect.succeed
        })
      )

    const list = Effect.fn("Transactions.list")(function* (teamId: TeamId, query: TransactionQuery) {
      const filter = yield* filterOf(referencesOf(ports, teamId), query)
      const sort = transactionSortOf(query)
      const after = yield* Effect.fromResult(transactionStartOf(query.cursor, sort))
      const limit = query.limit ?? 20
      const rows = yield* repo.list({ teamId, filter, sort, after, limit })
      return transactionPageOf(rows, limit, sort, after)
    })

    const get = Effect.fn("Transactions.get")(function* (teamId: TeamId, id: TransactionId) {
      return yield* found(teamId, id, null)
    })

    const createMany = Effect.fn("Transactions.createMany")(function* (
      teamId: TeamId,
      inputs: ReadonlyArray<CreateTransaction>,
      prefixed = true
    ) {
      const refs = referencesOf(ports, teamId)
      const at = yield* nowIso
      const created = yield* Effect.forEach(inputs, (input, i) =>
        newManualTransaction(teamId, input, prefixed ? `${i}.` : "", refs, at)
      )
      yield* repo.insert(created)
      return yield* Effect.forEach(created, (c) => found(teamId, c.transaction.id, null)).pipe(
        Effect.catchTag("TransactionNotFound", () => Effect.die("a transaction just inserted was not found"))
      )
    })

    const create = Effect.fn("Transactions.create")(function* (teamId: TeamId, input: CreateTransaction) {
      const [created] = yield* createMany(teamId, [input], false)
      return created!
    })

    const updateOne = (teamId: TeamId, step: UpdateStep, refs: TransactionReferences, tagId: string | null) =>
      Effect.gen(function* () {
        const current = yield* found(teamId, step.id, step.idField)
        const input =
          tagId === null
            ? step.changes
            : { ...step.changes, tagIds: [...(step.changes.tagIds ?? current.tags.map((tag) => tag.id)), tagId] }
        const changes = yield* changesOf(current.transaction, input, step.prefix, refs, yield* nowIso)
        yield* repo.update(teamId, [current.transaction.id], changes)
        return current.transaction.id
      })

    const update = Effect.fn("Transactions.update")(function* (
      teamId: TeamId,
      id: TransactionId,
      changes: UpdateTransaction
    ) {
      const step = { id, changes, idField: null, prefix: "" }
      yield* transactor.withTransaction(updateOne(teamId, step, referencesOf(ports, teamId), null))
      return yield* found(teamId, id, null)
    })

    const updateMany = Effect.fn("Transactions.updateMany")(function* (teamId: TeamId, request: BulkUpdate) {
      const refs = referencesOf(ports, teamId)
      const { steps, tagId } = yield* bulkUpdateOf(request)
      if (tagId !== null) yield* refs.tag(tagId, "tagId")
      const ids = yield* transactor.withTransaction(
        Effect.forEach(steps, (step) => updateOne(teamId, step, refs, tagId))
      )
      return yield* Effect.forEach(ids, (id) => found(teamId, id, null))
    })

    const remove = Effect.fn("Transactions.remove")(function* (teamId: TeamId, id: TransactionId) {
      const current = yield* found(teamId, id, null)
      const removed = yield* repo.remove(teamId, [id])
      if (removed.length === 0) return yield* new TransactionNotFound({ transactionId: id, field: null })
      return current
    })

    const removeMany = Effect.fn("Transactions.removeMany")(function* (teamId: TeamId, ids: ReadonlyArray<string>) {
      const malformed = ids.findIndex((id) => !isUuidText(id))
      if (malformed >= 0) {
        return yield* new TransactionNotFound({ transactionId: ids[malformed]!, field: `${malformed}` })
      }
      return yield* transactor.withTransaction(
        Effect.gen(function* () {
          const removed = new Set<string>(
            yield* repo.remove(
              teamId,
              ids.map((id) => id as TransactionId)
            )
          )
          const missing = ids.findIndex((id) => !removed.has(id))
          if (missing >= 0) {
            return yield* new TransactionNotFound({ transactionId: ids[missing]!, field: `${missing}` })
          }
          return [...removed].map((id) => id as TransactionId)
        })
      )
    })

    const addAttachment = Effect.fn("Transactions.addAttachment")(function* (
      teamId: TeamId,
      id: TransactionId,
      input: CreateTransactionAttachment
    ) {
      const refusal = attachmentPathRefusal(teamId, input.path)
      if (Option.isSome(refusal)) return yield* refusal.value
      yield* found(teamId, id, null)
      const attachment: TransactionAttachment = {
        id: yield* newId(AttachmentId),
        teamId,
        transactionId: id,
        path: input.path,
        filename: input.name,
        size: input.size,
        type: input.type,
        createdAt: yield* nowIso
      }
      yield* repo.addAttachment(attachment)
      return attachment
    })

    const removeAttachment = Effect.fn("Transactions.removeAttachment")(function* (
      teamId: TeamId,
      id: TransactionId,
      attachmentId: string
    ) {
      const current = isUuidText(id) ? yield* repo.find(teamId, id) : Option.none()
      const attachment = Option.flatMapNullishOr(current, (d) => d.attachments.find((a) => a.id === attachmentId))
      if (Option.isNone(attachment) || !(yield* repo.removeAttachment(teamId, id, attachment.value.id))) {
        return yield* new TransactionAttachmentNotFound({ transactionId: id, attachmentId })
      }
      return attachment.value
    })

    return Transactions.of({
      list,
      get,
      create,
      createMany: (teamId, inputs) => createMany(teamId, inputs),
      update,
      updateMany,
      remove,
      removeMany,
      addAttachment,
      removeAttachment
    })
  })

  static readonly layer = Layer.effect(Transactions, Transactions.make)
}
