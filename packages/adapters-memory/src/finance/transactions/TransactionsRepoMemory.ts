import {
  BankAccountsRepo,
  BankConnectionsRepo,
  CategoriesRepo,
  searchWords,
  TagsRepo,
  type Transaction,
  type TransactionAttachment,
  type TransactionChanges,
  type TransactionDetails,
  type TransactionFilter,
  type TransactionId,
  type TransactionListRequest,
  TransactionsRepo,
  textWords
} from "@svc/domain"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../../shared/index.ts"

interface Tables {
  readonly transactions: ReadonlyMap<string, Transaction>
  /** Tag ids per transaction id. */
  readonly tags: ReadonlyMap<string, ReadonlyArray<string>>
  readonly attachments: ReadonlyMap<string, TransactionAttachment>
}

const applyChanges = (t: Transaction, c: TransactionChanges): Transaction => {
  const next: Record<string, unknown> = { ...t, updatedAt: c.updatedAt }
  for (const [key, value] of Object.entries(c)) {
    if (value !== undefined && key !== "tagIds" && key !== "updatedAt") next[key] = value
  }
  return next as Transaction
}

const wordsOf = (t: Transaction) => textWords(`${t.name} ${t.description ?? ""} ${t.counterpartyName ?? ""}`)

const matches = (t: Transaction, f: TransactionFilter, tables: Tables): boolean => {
  if (f.from !== undefined && t.date < f.from) return false
  if (f.to !== undefined && t.date > f.to) return false
  if (f.q !== undefined) {
    const words = wordsOf(t)
    if (!searchWords(f.q).every((q) => words.some((w) => w.startsWith(q)))) return false
  }
  if (f.categoryIds !== undefined || f.uncategorized === true) {
    const inCategory = t.categoryId !== null && (f.categoryIds ?? []).includes(t.categoryId)
    if (!inCategory && !(f.uncategorized === true && t.categoryId === null)) return false
  }
  if (f.tagIds !== undefined) {
    const tags = tables.tags.get(t.id) ?? []
    if (!f.tagIds.some((id) => tags.includes(id))) return false
  }
  if (f.bankAccountIds !== undefined && (t.bankAccountId === null || !f.bankAccountIds.includes(t.bankAccountId))) {
    return false
  }
  if (f.type === "income" && t.amountMinor <= 0) return false
  if (f.type === "expense" && t.amountMinor >= 0) return false
  if (f.statuses !== undefined && !f.statuses.includes(t.status)) return false
  if (f.currency !== undefined && t.currency !== f.currency) return false
  if (f.amountMinMinor !== undefined && Math.abs(t.amountMinor) < f.amountMinMinor) return false
  if (f.amountMaxMinor !== undefined && Math.abs(t.amountMinor) > f.amountMaxMinor) return false
  if (f.hasAttachments !== undefined) {
    const has = [...tables.attachments.values()].some((a) => a.transactionId === t.id)
    if (has !== f.hasAttachments) return false
  }
  if (f.recurring !== undefined && t.recurring !== f.recurring) return false
  if (f.frequencies !== undefined && (t.frequency === null || !f.frequencies.includes(t.frequency))) return false
  return true
}

const compareBy =
  (request: TransactionListRequest) =>
  (
    a: { readonly key: string | number; readonly id: string },
    b: { readonly key: string | number; readonly id: string }
  ) => {
    const order = a.key === b.key ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.key < b.key ? -1 : 1
    return request.sort.direction === "asc" ? order : -order
  }

/**
 * TransactionsRepo over the in-memory store. Categories, tags and accounts are read through their own ports, so a
 * deleted category leaves its transactions uncategorised, a deleted tag leaves them, and a deleted account takes its
 * transactions with it, as the database's foreign keys do.
 */
export const TransactionsRepoMemory = Layer.effect(
  TransactionsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const categories = yield* CategoriesRepo
    const tagsRepo = yield* TagsRepo
    const accounts = yield* BankAccountsRepo
    const connections = yield* BankConnectionsRepo
    const tables = yield* store.table<Tables>({ transactions: new Map(), tags: new Map(), attachments: new Map() })

    const detailsOf = (t: Transaction, all: Tables) =>
      Effect.gen(function* () {
        const account = t.bankAccountId === null ? Option.none() : yield* accounts.find(t.teamId, t.bankAccountId)
        if (t.bankAccountId !== null && Option.isNone(account)) return Option.none<TransactionDetails>()
        const connection =
          Option.isNone(account) || account.value.connectionId === null
            ? Option.none()
            : yield* connections.find(t.teamId, account.value.connectionId)
        const category = t.categoryId === null ? Option.none() : yield* categories.find(t.teamId, t.categoryId)
        const tagIds = all.tags.get(t.id) ?? []
        const tags =
          tagIds.length === 0
            ? []
            : (yield* tagsRepo.list(t.teamId))
                .filter((tag) => tagIds.includes(tag.id))
                .toSorted((a, b) => (a.name === b.name ? (a.id < b.id ? -1 : 1) : a.name < b.name ? -1 : 1))
        const attachments = [...all.attachments.values()]
          .filter((a) => a.transactionId === t.id)
          .toSorted((a, b) =>
            a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1
          )
        return Option.some<TransactionDetails>({
          transaction: { ...t, categoryId: Option.isSome(category) ? t.categoryId : null },
          category: Option.getOrNull(category),
          account: Option.match(account, {
            onNone: () => null,
            onSome: (a) => ({
              account: a,
              connection: Option.match(connection, {
                onNone: () => null,
                onSome: (c) => ({ id: c.id, name: c.provider, logoUrl: null })
              })
            })
          }),
          tags,
          attachments
        })
      })

    const visible = (teamId: string, id: string) =>
      Effect.gen(function* () {
        const all = yield* Ref.get(tables)
        const found = all.transactions.get(id)
        if (found === undefined || found.teamId !== teamId) return Option.none<TransactionDetails>()
        return yield* detailsOf(found, all)
      })

    return TransactionsRepo.of({
      insert: (transactions) =>
        store.atomically(
          Ref.update(tables, (all) => {
            const rows = new Map(all.transactions)
            const tags = new Map(all.tags)
            for (const { transaction, tagIds } of transactions) {
              rows.set(transaction.id, transaction)
              tags.set(transaction.id, [...new Set(tagIds)])
            }
            return { ...all, transactions: rows, tags }
          })
        ),
      insertImported: (transaction) =>
        store.atomically(
          Effect.gen(function* () {
            const all = yield* Ref.get(tables)
            const existing = [...all.transactions.values()].find(
              (t) =>
                t.teamId === transaction.teamId &&
                t.provider === transaction.provider &&
                t.providerTransactionId === transaction.providerTransactionId
            )
            if (existing !== undefined) return { outcome: "existing" as const, id: existing.id }
            yield* Ref.set(tables, { ...all, transactions: new Map(all.transactions).set(transaction.id, transaction) })
            return { outcome: "created" as const, id: transaction.id }
          })
        ),
      find: visible,
      list: (request) =>
        Effect.gen(function* () {
          const all = yield* Ref.get(tables)
          const compare = compareBy(request)
          const keyOf = (t: Transaction) => ({ key: request.sort.by === "date" ? t.date : t.amountMinor, id: t.id })
          const candidates = [...all.transactions.values()]
            .filter(
              (t) =>
                t.teamId === request.teamId &&
                matches(t, request.filter, all) &&
                Option.match(request.after, { onNone: () => true, onSome: (p) => compare(keyOf(t), p) > 0 })
            )
            .toSorted((a, b) => compare(keyOf(a), keyOf(b)))
          const page: Array<TransactionDetails> = []
          for (const t of candidates) {
            if (page.length > request.limit) break
            const details = yield* detailsOf(t, all)
            if (Option.isSome(details)) page.push(details.value)
          }
          return page
        }),
      update: (teamId, ids, changes) =>
        store.atomically(
          Effect.gen(function* () {
            const all = yield* Ref.get(tables)
            const rows = new Map(all.transactions)
            const tags = new Map(all.tags)
            const updated: Array<TransactionId> = []
            for (const id of new Set(ids)) {
              const found = rows.get(id)
              if (found === undefined || found.teamId !== teamId) continue
              rows.set(id, applyChanges(found, changes))
              if (changes.tagIds !== undefined) tags.set(id, [...new Set(changes.tagIds)])
              updated.push(id)
            }
            yield* Ref.set(tables, { ...all, transactions: rows, tags })
            return updated
          })
        ),
      remove: (teamId, ids) =>
        store.atomically(
          Effect.gen(function* () {
            const all = yield* Ref.get(tables)
            const rows = new Map(all.transactions)
            const tags = new Map(all.tags)
            const removed: Array<TransactionId> = []
            for (const id of new Set(ids)) {
              if (rows.get(id)?.teamId !== teamId) continue
              rows.delete(id)
              tags.delete(id)
              removed.push(id)
            }
            const gone = new Set<string>(removed)
            const attachments = new Map([...all.attachments].filter(([, a]) => !gone.has(a.transactionId)))
            yield* Ref.set(tables, { transactions: rows, tags, attachments })
            return removed
          })
        ),
      addAttachment: (attachment) =>
        store.atomically(
          Ref.update(tables, (all) => ({
            ...all,
            attachments: new Map(all.attachments).set(attachment.id, attachment)
          }))
        ),
      removeAttachment: (teamId, transactionId, id) =>
        store.atomically(
          Effect.gen(function* () {
            const all = yield* Ref.get(tables)
            const found = all.attachments.get(id)
            if (found === undefined || found.teamId !== teamId || found.transactionId !== transactionId) return false
            const attachments = new Map(all.attachments)
            attachments.delete(id)
            yield* Ref.set(tables, { ...all, attachments })
            return true
          })
        )
    })
  })
)
