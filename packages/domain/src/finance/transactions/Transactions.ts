import { Context, Effect, Layer, Option, Result } from "effect"
import { newId, nowIso, type PersistenceUnavailable, type TeamId, Transactor } from "../../shared/index.ts"
import { BankAccountsRepo } from "../banking/index.ts"
import type { BankAccountId } from "../banking/model.ts"
import { parseMajor, renderMinor } from "../money/model.ts"
import { TagsRepo } from "../tags/index.ts"
import type { TagId } from "../tags/model.ts"
import { CategoriesRepo } from "./CategoriesRepo.ts"
import type { Category, CategoryId } from "./Category.ts"
import {
  AttachmentId,
  type Transaction,
  type TransactionAttachment,
  type TransactionDetails,
  TransactionId
} from "./Transaction.ts"
import {
  TransactionAttachmentNotFound,
  TransactionInvalid,
  TransactionNotFound,
  TransactionReferenceNotFound
} from "./TransactionErrors.ts"
import {
  type BulkUpdateItem,
  type CreateTransaction,
  type CreateTransactionAttachment,
  type TransactionQuery,
  transactionDayOf,
  type UpdateTransaction
} from "./TransactionInput.ts"
import {
  type NewTransaction,
  type TransactionChanges,
  type TransactionFilter,
  type TransactionPosition,
  type TransactionSort,
  TransactionsRepo
} from "./TransactionsRepo.ts"

/** A page of a transaction list; `cursor` is the position the next page starts after (null on the last page). */
export interface TransactionPage {
  readonly data: ReadonlyArray<TransactionDetails>
  readonly cursor: string | null
  readonly hasNextPage: boolean
  readonly hasPreviousPage: boolean
}

type Refusal = TransactionInvalid | TransactionReferenceNotFound
type Failure = Refusal | PersistenceUnavailable

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu

const invalid = (field: string, message: string) => new TransactionInvalid({ field, message })

const amountOf = (value: number | string, currency: string, field: string) =>
  Result.match(parseMajor(value, currency, field), {
    onFailure: (e) => Effect.fail(invalid(e.field, e.message)),
    onSuccess: (minor) => Effect.succeed(minor)
  })

/** `by~direction~key~id`: where a page of one order ended. */
const encodePosition = (sort: TransactionSort, t: Transaction): string =>
  `${sort.by}~${sort.direction}~${sort.by === "date" ? t.date : t.amountMinor}~${t.id}`

const decodePosition = (cursor: string, sort: TransactionSort): Option.Option<TransactionPosition> => {
  const [by, direction, key, id, ...rest] = cursor.split("~")
  if (rest.length > 0 || by !== sort.by || direction !== sort.direction || key === undefined || id === undefined) {
    return Option.none()
  }
  if (!UUID.test(id)) return Option.none()
  if (by === "date") {
    const day = transactionDayOf(key)
    return day === key ? Option.some({ key: day, id: TransactionId.make(id) }) : Option.none()
  }
  return /^-?\d{1,15}$/u.test(key) ? Option.some({ key: Number(key), id: TransactionId.make(id) }) : Option.none()
}

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
    /** Applies every item's changes or none. */
    readonly updateMany: (
      teamId: TeamId,
      items: ReadonlyArray<BulkUpdateItem>
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
    const categoriesRepo = yield* CategoriesRepo
    const tagsRepo = yield* TagsRepo
    const accountsRepo = yield* BankAccountsRepo
    const transactor = yield* Transactor

    /** The team's references, read once per request. */
    const referencesOf = (teamId: TeamId) => {
      let categories: ReadonlyArray<Category> | undefined
      const accounts = new Map<string, boolean>()
      const allCategories = Effect.suspend(() =>
        categories !== undefined
          ? Effect.succeed(categories)
          : categoriesRepo.list(teamId).pipe(Effect.tap((all) => Effect.sync(() => (categories = all))))
      )
      const category = (value: string, bySlug: boolean, field: string) =>
        Effect.flatMap(allCategories, (all) => {
          const found = all.find((c) => (bySlug ? c.slug === value : c.id === value))
          return found === undefined
            ? Effect.fail(new TransactionReferenceNotFound({ kind: "category", id: value, field }))
            : Effect.succeed(found)
        })
      const tags = (ids: ReadonlyArray<string>, field: string) =>
        Effect.gen(function* () {
          if (ids.length === 0) return [] as ReadonlyArray<TagId>
          const unique = [...new Set(ids)]
          const known = new Set<string>(
            yield* tagsRepo.existing(
              teamId,
              unique.map((id) => id as TagId)
            )
          )
          const missing = ids.findIndex((id) => !known.has(id))
          if (missing >= 0) {
            return yield* new TransactionReferenceNotFound({
              kind: "tag",
              id: ids[missing]!,
              field: `${field}.${missing}`
            })
          }
          return unique.map((id) => id as TagId)
        })
      const account = (id: string, field: string) =>
        Effect.gen(function* () {
          let known = accounts.get(id)
          if (known === undefined) {
            known = Option.isSome(yield* accountsRepo.find(teamId, id as BankAccountId))
            accounts.set(id, known)
          }
          if (!known) return yield* new TransactionReferenceNotFound({ kind: "bank account", id, field })
          return id as BankAccountId
        })
      return { allCategories, category, tags, account }
    }
    type References = ReturnType<typeof referencesOf>

    const categoryOf = (
      refs: References,
      input: { readonly categoryId?: string | null | undefined; readonly categorySlug?: string | undefined },
      p: string
    ): Effect.Effect<CategoryId | null | undefined, Failure> => {
      if (input.categoryId !== undefined && input.categorySlug !== undefined) {
        return Effect.fail(invalid(`${p}categorySlug`, "give categoryId or categorySlug, not both"))
      }
      if (input.categorySlug !== undefined) {
        return Effect.map(refs.category(input.categorySlug, true, `${p}categorySlug`), (c) => c.id)
      }
      if (input.categoryId === undefined || input.categoryId === null) return Effect.succeed(input.categoryId)
      return Effect.map(refs.category(input.categoryId, false, `${p}categoryId`), (c) => c.id)
    }

    const baseOf = (
      baseAmount: number | null | undefined,
      baseCurrency: string | null | undefined,
      p: string
    ): Effect.Effect<{ baseAmountMinor: number | null; baseCurrency: string | null }, TransactionInvalid> => {
      if (baseAmount === undefined || baseAmount === null) {
        if (baseCurrency !== undefined && baseCurrency !== null) {
          return Effect.fail(invalid(`${p}baseAmount`, "required with baseCurrency"))
        }
        return Effect.succeed({ baseAmountMinor: null, baseCurrency: null })
      }
      if (baseCurrency === undefined || baseCurrency === null) {
        return Effect.fail(invalid(`${p}baseCurrency`, "required with baseAmount"))
      }
      return Effect.map(amountOf(baseAmount, baseCurrency, `${p}baseAmount`), (minor) => ({
        baseAmountMinor: minor,
        baseCurrency
      }))
    }

    const newTransaction = (teamId: TeamId, input: CreateTransaction, p: string, refs: References, at: string) =>
      Effect.gen(function* () {
        const date = transactionDayOf(input.date)
        if (date === undefined) return yield* invalid(`${p}date`, "expected a date")
        const amountMinor = yield* amountOf(input.amount, input.currency, `${p}amount`)
        const base = yield* baseOf(input.baseAmount, input.baseCurrency, p)
        const categoryId = (yield* categoryOf(refs, input, p)) ?? null
        const bankAccountId =
          input.bankAccountId === undefined || input.bankAccountId === null
            ? null
            : yield* refs.account(input.bankAccountId, `${p}bankAccountId`)
        const tagIds = yield* refs.tags(input.tagIds ?? [], `${p}tagIds`)
        const frequency = input.frequency ?? null
        const transaction: Transaction = {
          id: yield* newId(TransactionId),
          teamId,
          date,
          name: input.name,
          description: input.description ?? null,
          amountMinor,
          currency: input.currency,
          baseAmountMinor: base.baseAmountMinor,
          baseCurrency: base.baseCurrency as Transaction["baseCurrency"],
          status: input.status ?? "posted",
          internal: input.internal ?? false,
          recurring: input.recurring ?? frequency !== null,
          frequency,
          manual: true,
          note: input.note ?? null,
          categoryId,
          bankAccountId,
          taxRate: input.taxRate ?? null,
          taxType: input.taxType ?? null,
          counterpartyName: input.counterpartyName ?? null,
          provider: null,
          providerTransactionId: null,
          createdAt: at,
          updatedAt: at
        }
        return { transaction, tagIds } satisfies NewTransaction
      })

    const changesOf = (current: Transaction, input: UpdateTransaction, p: string, refs: References, at: string) =>
      Effect.gen(function* () {
        const changes: { -readonly [K in keyof TransactionChanges]: TransactionChanges[K] } = { updatedAt: at }
        if (input.date !== undefined) {
          const date = transactionDayOf(input.date)
          if (date === undefined) return yield* invalid(`${p}date`, "expected a date")
          changes.date = date
        }
        const currency = input.currency ?? current.currency
        if (input.amount !== undefined) {
          changes.amountMinor = yield* amountOf(input.amount, currency, `${p}amount`)
        } else if (currency !== current.currency) {
          changes.amountMinor = yield* amountOf(
            renderMinor(current.amountMinor, current.currency),
            currency,
            `${p}currency`
          )
        }
        if (input.currency !== undefined) changes.currency = input.currency
        if (input.baseAmount !== undefined || input.baseCurrency !== undefined) {
          const baseCurrency = input.baseCurrency !== undefined ? input.baseCurrency : current.baseCurrency
          const baseAmount =
            input.baseAmount !== undefined
              ? input.baseAmount
              : current.baseAmountMinor === null || current.baseCurrency === null || baseCurrency === null
                ? null
                : renderMinor(current.baseAmountMinor, current.baseCurrency)
          const base =
            input.baseCurrency === null && input.baseAmount === undefined
              ? { baseAmountMinor: null, baseCurrency: null }
              : yield* baseOf(baseAmount, baseCurrency, p)
          changes.baseAmountMinor = base.baseAmountMinor
          changes.baseCurrency = base.baseCurrency
        }
        const category = yield* categoryOf(refs, input, p)
        if (category !== undefined) changes.categoryId = category
        if (input.bankAccountId !== undefined) {
          changes.bankAccountId =
            input.bankAccountId === null ? null : yield* refs.account(input.bankAccountId, `${p}bankAccountId`)
        }
        if (input.tagIds !== undefined) changes.tagIds = yield* refs.tags(input.tagIds, `${p}tagIds`)
        if (input.name !== undefined) changes.name = input.name
        if (input.description !== undefined) changes.description = input.description
        if (input.status !== undefined) changes.status = input.status
        if (input.internal !== undefined) changes.internal = input.internal
        if (input.frequency !== undefined) changes.frequency = input.frequency
        if (input.recurring !== undefined) changes.recurring = input.recurring
        else if (input.frequency !== undefined && input.frequency !== null) changes.recurring = true
        if (input.note !== undefined) changes.note = input.note
        if (input.taxRate !== undefined) changes.taxRate = input.taxRate
        if (input.taxType !== undefined) changes.taxType = input.taxType
        if (input.counterpartyName !== undefined) changes.counterpartyName = input.counterpartyName
        return changes as TransactionChanges
      })

    const found = (teamId: TeamId, id: string, field: string | null) =>
      Effect.flatMap(
        UUID.test(id) ? repo.find(teamId, id as TransactionId) : Effect.succeed(Option.none()),
        Option.match({
          onNone: () => Effect.fail(new TransactionNotFound({ transactionId: id, field })),
          onSome: Effect.succeed
        })
      )

    const filterOf = (teamId: TeamId, query: TransactionQuery) =>
      Effect.gen(function* () {
        const refs = referencesOf(teamId)
        const filter: { -readonly [K in keyof TransactionFilter]: TransactionFilter[K] } = {}
        for (const field of ["from", "to"] as const) {
          const text = query[field]
          if (text === undefined) continue
          const day = transactionDayOf(text)
          if (day === undefined) return yield* invalid(field, "expected a date YYYY-MM-DD or an ISO 8601 date-time")
          filter[field] = day
        }
        if (filter.from !== undefined && filter.to !== undefined && filter.from > filter.to) {
          return yield* invalid("from", "must not be after to")
        }
        if (query.q !== undefined && query.q.trim() !== "") filter.q = query.q
        if (query.categories !== undefined && query.categories.length > 0) {
          const ids: Array<CategoryId> = []
          for (const [i, value] of query.categories.entries()) {
            if (value === "uncategorized") filter.uncategorized = true
            else ids.push((yield* refs.category(value, !UUID.test(value), `categories.${i}`)).id)
          }
          filter.categoryIds = ids
        }
        if (query.tags !== undefined && query.tags.length > 0) {
          const bad = query.tags.findIndex((id) => !UUID.test(id))
          if (bad >= 0) return yield* invalid(`tags.${bad}`, "expected a UUID")
          filter.tagIds = yield* refs.tags(query.tags, "tags")
        }
        if (query.bankAccounts !== undefined && query.bankAccounts.length > 0) {
          filter.bankAccountIds = yield* Effect.forEach(
            query.bankAccounts,
            (id, i): Effect.Effect<BankAccountId, Failure> =>
              UUID.test(id)
                ? refs.account(id, `bankAccounts.${i}`)
                : Effect.fail(invalid(`bankAccounts.${i}`, "expected a UUID"))
          )
        }
        if (query.type !== undefined) filter.type = query.type
        if (query.statuses !== undefined && query.statuses.length > 0) filter.statuses = query.statuses
        if (query.currency !== undefined) filter.currency = query.currency
        if (query.amountMin !== undefined || query.amountMax !== undefined) {
          if (query.currency === undefined) return yield* invalid("currency", "required with amountMin or amountMax")
          if (query.amountMin !== undefined) {
            filter.amountMinMinor = Math.abs(yield* amountOf(query.amountMin, query.currency, "amountMin"))
          }
          if (query.amountMax !== undefined) {
            filter.amountMaxMinor = Math.abs(yield* amountOf(query.amountMax, query.currency, "amountMax"))
          }
          if (
            filter.amountMinMinor !== undefined &&
            filter.amountMaxMinor !== undefined &&
            filter.amountMinMinor > filter.amountMaxMinor
          ) {
            return yield* invalid("amountMin", "must not be above amountMax")
          }
        }
        if (query.attachments !== undefined) filter.hasAttachments = query.attachments
        if (query.recurring !== undefined) filter.recurring = query.recurring
        if (query.frequencies !== undefined && query.frequencies.length > 0) filter.frequencies = query.frequencies
        return filter as TransactionFilter
      })

    const list = Effect.fn("Transactions.list")(function* (teamId: TeamId, query: TransactionQuery) {
      const filter = yield* filterOf(teamId, query)
      const sort: TransactionSort = { by: query.sortBy ?? "date", direction: query.direction ?? "desc" }
      const after =
        query.cursor === undefined || query.cursor === "" ? Option.none() : decodePosition(query.cursor, sort)
      if (query.cursor !== undefined && query.cursor !== "" && Option.isNone(after)) {
        return yield* invalid("cursor", "not a cursor of this list and order")
      }
      const limit = query.limit ?? 20
      const rows = yield* repo.list({ teamId, filter, sort, after, limit })
      const data = rows.slice(0, limit)
      const last = data.at(-1)
      const hasNextPage = rows.length > limit
      return {
        data,
        cursor: hasNextPage && last !== undefined ? encodePosition(sort, last.transaction) : null,
        hasNextPage,
        hasPreviousPage: Option.isSome(after)
      } satisfies TransactionPage
    })

    const get = Effect.fn("Transactions.get")(function* (teamId: TeamId, id: TransactionId) {
      return yield* found(teamId, id, null)
    })

    const createMany = Effect.fn("Transactions.createMany")(function* (
      teamId: TeamId,
      inputs: ReadonlyArray<CreateTransaction>,
      prefixed = true
    ) {
      const refs = referencesOf(teamId)
      const at = yield* nowIso
      const created = yield* Effect.forEach(inputs, (input, i) =>
        newTransaction(teamId, input, prefixed ? `${i}.` : "", refs, at)
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

    const updateOne = (teamId: TeamId, id: string, input: UpdateTransaction, p: string, refs: References) =>
      Effect.gen(function* () {
        const current = yield* found(teamId, id, p === "" ? null : `${p}id`)
        const changes = yield* changesOf(current.transaction, input, p, refs, yield* nowIso)
        yield* repo.update(teamId, [current.transaction.id], changes)
        return current.transaction.id
      })

    const update = Effect.fn("Transactions.update")(function* (
      teamId: TeamId,
      id: TransactionId,
      changes: UpdateTransaction
    ) {
      yield* transactor.withTransaction(updateOne(teamId, id, changes, "", referencesOf(teamId)))
      return yield* found(teamId, id, null)
    })

    const updateMany = Effect.fn("Transactions.updateMany")(function* (
      teamId: TeamId,
      items: ReadonlyArray<BulkUpdateItem>
    ) {
      const refs = referencesOf(teamId)
      const duplicate = items.findIndex((item, i) => items.findIndex((other) => other.id === item.id) !== i)
      if (duplicate >= 0) return yield* invalid(`${duplicate}.id`, "the same transaction twice")
      const ids = yield* transactor.withTransaction(
        Effect.forEach(items, ({ id, ...changes }, i) => updateOne(teamId, id, changes, `${i}.`, refs))
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
      const malformed = ids.findIndex((id) => !UUID.test(id))
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
      if (input.path[0] !== teamId)
        return yield* invalid("path.0", "a file of the team: its path starts with the team id")
      if (input.path.some((segment) => segment === "." || segment === ".." || segment.includes("/"))) {
        return yield* invalid("path", "path segments must not be '.', '..' or contain '/'")
      }
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
      const current = UUID.test(id) ? yield* repo.find(teamId, id) : Option.none()
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
