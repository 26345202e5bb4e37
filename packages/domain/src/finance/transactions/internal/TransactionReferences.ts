import { Effect, Option } from "effect"
import { newId, type PersistenceUnavailable, type TeamId } from "../../../shared/index.ts"
import type { BankAccountsRepo } from "../../banking/index.ts"
import type { BankAccountId } from "../../banking/model.ts"
import type { TagsRepo } from "../../tags/index.ts"
import type { TagId } from "../../tags/model.ts"
import type { CategoriesRepo } from "../CategoriesRepo.ts"
import type { Category, CategoryId } from "../Category.ts"
import { type Transaction, TransactionId } from "../Transaction.ts"
import { TransactionInvalid, TransactionReferenceNotFound } from "../TransactionErrors.ts"
import type { CreateTransaction, TransactionQuery, UpdateTransaction } from "../TransactionInput.ts"
import {
  isUuidText,
  manualTransaction,
  manualValuesOf,
  plainChangesOf,
  transactionAmountRangeOf,
  transactionDayRangeOf,
  valueChangesOf
} from "../TransactionRules.ts"
import type { NewTransaction, TransactionChanges, TransactionFilter } from "../TransactionsRepo.ts"

type Failure = TransactionInvalid | TransactionReferenceNotFound | PersistenceUnavailable

/** The ports a transaction request's references are checked against. */
export interface ReferencePorts {
  readonly categories: CategoriesRepo["Service"]
  readonly tags: TagsRepo["Service"]
  readonly accounts: BankAccountsRepo["Service"]
}

/** The team's references (categories, tags, bank accounts), each read once per request. */
export const referencesOf = (ports: ReferencePorts, teamId: TeamId) => {
  let categories: ReadonlyArray<Category> | undefined
  const accounts = new Map<string, boolean>()
  const allCategories = Effect.suspend(() =>
    categories !== undefined
      ? Effect.succeed(categories)
      : ports.categories.list(teamId).pipe(Effect.tap((all) => Effect.sync(() => (categories = all))))
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
        yield* ports.tags.existing(
          teamId,
          unique.map((id) => id as TagId)
        )
      )
      const missing = ids.findIndex((id) => !known.has(id))
      if (missing >= 0) {
        return yield* new TransactionReferenceNotFound({ kind: "tag", id: ids[missing]!, field: `${field}.${missing}` })
      }
      return unique.map((id) => id as TagId)
    })
  const tag = (id: string, field: string) =>
    Effect.flatMap(ports.tags.existing(teamId, [id as TagId]), (known) =>
      known.length === 1
        ? Effect.succeed(id as TagId)
        : Effect.fail(new TransactionReferenceNotFound({ kind: "tag", id, field }))
    )
  const account = (id: string, field: string) =>
    Effect.gen(function* () {
      let known = accounts.get(id)
      if (known === undefined) {
        known = Option.isSome(yield* ports.accounts.find(teamId, id as BankAccountId))
        accounts.set(id, known)
      }
      if (!known) return yield* new TransactionReferenceNotFound({ kind: "bank account", id, field })
      return id as BankAccountId
    })
  return { allCategories, category, tags, tag, account }
}

/** A team's references, as `referencesOf` reads them. */
export type TransactionReferences = ReturnType<typeof referencesOf>

const categoryOf = (
  refs: TransactionReferences,
  input: { readonly categoryId?: string | null | undefined; readonly categorySlug?: string | undefined },
  p: string
): Effect.Effect<CategoryId | null | undefined, Failure> => {
  if (input.categoryId !== undefined && input.categorySlug !== undefined) {
    return Effect.fail(
      new TransactionInvalid({ field: `${p}categorySlug`, message: "give categoryId or categorySlug, not both" })
    )
  }
  if (input.categorySlug !== undefined) {
    return Effect.map(refs.category(input.categorySlug, true, `${p}categorySlug`), (c) => c.id)
  }
  if (input.categoryId === undefined || input.categoryId === null) return Effect.succeed(input.categoryId)
  return Effect.map(refs.category(input.categoryId, false, `${p}categoryId`), (c) => c.id)
}

/** A new manual transaction with its tags, its values checked and its references the team's (`p` prefixes fields). */
export const newManualTransaction = (
  teamId: TeamId,
  input: CreateTransaction,
  p: string,
  refs: TransactionReferences,
  at: string
) =>
  Effect.gen(function* () {
    const values = yield* Effect.fromResult(manualValuesOf(input, p))
    const categoryId = (yield* categoryOf(refs, input, p)) ?? null
    const bankAccountId =
      input.bankAccountId === undefined || input.bankAccountId === null
        ? null
        : yield* refs.account(input.bankAccountId, `${p}bankAccountId`)
    const tagIds = yield* refs.tags(input.tagIds ?? [], `${p}tagIds`)
    const transaction: Transaction = manualTransaction({
      id: yield* newId(TransactionId),
      teamId,
      at,
      input,
      values,
      categoryId,
      bankAccountId
    })
    return { transaction, tagIds } satisfies NewTransaction
  })

/** The changes an update makes, its values checked and the references it names the team's (`p` prefixes fields). */
export const changesOf = (
  current: Transaction,
  input: UpdateTransaction,
  p: string,
  refs: TransactionReferences,
  at: string
) =>
  Effect.gen(function* () {
    const values = yield* Effect.fromResult(valueChangesOf(current, input, p))
    const changes: { -readonly [K in keyof TransactionChanges]: TransactionChanges[K] } = { ...values, updatedAt: at }
    const category = yield* categoryOf(refs, input, p)
    if (category !== undefined) changes.categoryId = category
    if (input.bankAccountId !== undefined) {
      changes.bankAccountId =
        input.bankAccountId === null ? null : yield* refs.account(input.bankAccountId, `${p}bankAccountId`)
    }
    if (input.tagIds !== undefined) changes.tagIds = yield* refs.tags(input.tagIds, `${p}tagIds`)
    return { ...changes, ...plainChangesOf(input) } satisfies TransactionChanges
  })

/** The filter of a list query: its dates and amounts checked, the categories, tags and accounts it names the team's. */
export const filterOf = (refs: TransactionReferences, query: TransactionQuery) =>
  Effect.gen(function* () {
    const filter: { -readonly [K in keyof TransactionFilter]: TransactionFilter[K] } = {
      ...(yield* Effect.fromResult(transactionDayRangeOf(query)))
    }
    if (query.q !== undefined && query.q.trim() !== "") filter.q = query.q
    if (query.categories !== undefined && query.categories.length > 0) {
      const ids: Array<CategoryId> = []
      for (const [i, value] of query.categories.entries()) {
        if (value === "uncategorized") filter.uncategorized = true
        else ids.push((yield* refs.category(value, !isUuidText(value), `categories.${i}`)).id)
      }
      filter.categoryIds = ids
    }
    if (query.tags !== undefined && query.tags.length > 0) {
      const bad = query.tags.findIndex((id) => !isUuidText(id))
      if (bad >= 0) return yield* new TransactionInvalid({ field: `tags.${bad}`, message: "expected a UUID" })
      filter.tagIds = yield* refs.tags(query.tags, "tags")
    }
    if (query.bankAccounts !== undefined && query.bankAccounts.length > 0) {
      filter.bankAccountIds = yield* Effect.forEach(
        query.bankAccounts,
        (id, i): Effect.Effect<BankAccountId, Failure> =>
          isUuidText(id)
            ? refs.account(id, `bankAccounts.${i}`)
            : Effect.fail(new TransactionInvalid({ field: `bankAccounts.${i}`, message: "expected a UUID" }))
      )
    }
    if (query.type !== undefined) filter.type = query.type
    if (query.statuses !== undefined && query.statuses.length > 0) filter.statuses = query.statuses
    if (query.currency !== undefined) filter.currency = query.currency
    const amounts = yield* Effect.fromResult(transactionAmountRangeOf(query))
    if (query.attachments !== undefined) filter.hasAttachments = query.attachments
    if (query.recurring !== undefined) filter.recurring = query.recurring
    if (query.frequencies !== undefined && query.frequencies.length > 0) filter.frequencies = query.frequencies
    return { ...filter, ...amounts } satisfies TransactionFilter
  })
