import {
  type Customer,
  CustomersRepo,
  type Document,
  DocumentsRepo,
  dayOf,
  type InboxItem,
  InboxItemsRepo,
  type Invoice,
  InvoicesRepo,
  invoiceTotals,
  type PersistenceUnavailable,
  SEARCHED_TEXT_CHARS,
  type SearchHit,
  SearchRepo,
  type SearchRequest,
  type SearchType,
  searchOrder,
  type TeamId,
  type Transaction,
  TransactionsRepo,
  textWords,
  tokenRank
} from "@svc/domain"
import { Effect, Layer, Option } from "effect"

const ALL = { after: Option.none(), limit: Number.MAX_SAFE_INTEGER } as const

const hitOf = (
  base: Omit<SearchHit, "rank">,
  title: string,
  body: ReadonlyArray<string | null>,
  words: ReadonlyArray<string>
): ReadonlyArray<SearchHit> => {
  const rank = tokenRank(textWords(title), textWords(body.filter((b) => b !== null).join(" ")), words)
  return rank === undefined ? [] : [{ ...base, rank }]
}

const transactionHit = (t: Transaction, words: ReadonlyArray<string>) =>
  hitOf(
    {
      type: "transaction",
      id: t.id,
      title: t.name,
      subtitle: t.counterpartyName,
      amountMinor: t.amountMinor,
      currency: t.currency,
      date: t.date
    },
    t.name,
    [t.description, t.counterpartyName],
    words
  )

const customerHit = (c: Customer, words: ReadonlyArray<string>) =>
  hitOf(
    {
      type: "customer",
      id: c.id,
      title: c.name,
      subtitle: c.email ?? c.website,
      amountMinor: null,
      currency: null,
      date: null
    },
    c.name,
    [c.email, c.contact, c.website, c.note],
    words
  )

const invoiceHit = (i: Invoice, words: ReadonlyArray<string>) =>
  hitOf(
    {
      type: "invoice",
      id: i.id,
      title: i.invoiceNumber,
      subtitle: i.customerName,
      amountMinor: invoiceTotals(i).totalMinor,
      currency: i.currency,
      date: i.issueDate
    },
    `${i.invoiceNumber} ${i.customerName}`,
    [...i.lineItems.map((item) => item.name), i.note],
    words
  )

const documentHit = (d: Document, words: ReadonlyArray<string>) =>
  hitOf(
    {
      type: "document",
      id: d.id,
      title: d.title,
      subtitle: d.name,
      amountMinor: null,
      currency: null,
      date: dayOf(d.createdAt)
    },
    d.title,
    [d.name, d.contentType],
    words
  )

const inboxHit = (item: InboxItem, words: ReadonlyArray<string>) =>
  hitOf(
    {
      type: "inbox",
      id: item.id,
      title: item.subject,
      subtitle: item.sender,
      amountMinor: null,
      currency: null,
      date: dayOf(item.createdAt)
    },
    item.subject.slice(0, SEARCHED_TEXT_CHARS),
    [item.sender, item.textBody.slice(0, SEARCHED_TEXT_CHARS), ...item.attachments.map((a) => a.filename)],
    words
  )

/** SearchRepo over the in-memory store, through the searched contexts' ports, ranked by `tokenRank`. */
export const SearchRepoMemory = Layer.effect(
  SearchRepo,
  Effect.gen(function* () {
    const transactions = yield* TransactionsRepo
    const customers = yield* CustomersRepo
    const invoices = yield* InvoicesRepo
    const documents = yield* DocumentsRepo
    const inbox = yield* InboxItemsRepo
    const sources: {
      readonly [K in SearchType]: (
        teamId: TeamId,
        words: ReadonlyArray<string>
      ) => Effect.Effect<ReadonlyArray<SearchHit>, PersistenceUnavailable>
    } = {
      transaction: (teamId, words) =>
        transactions
          .list({ teamId, filter: {}, sort: { by: "date", direction: "desc" }, ...ALL })
          .pipe(Effect.map((rows) => rows.flatMap((d) => transactionHit(d.transaction, words)))),
      customer: (teamId, words) =>
        customers.list(teamId, null, ALL).pipe(Effect.map((rows) => rows.flatMap((c) => customerHit(c, words)))),
      invoice: (teamId, words) =>
        invoices.all(teamId).pipe(Effect.map((rows) => rows.flatMap((i) => invoiceHit(i, words)))),
      document: (teamId, words) =>
        documents.list(teamId, ALL).pipe(Effect.map((rows) => rows.flatMap((d) => documentHit(d, words)))),
      inbox: (teamId, words) =>
        inbox.list(teamId, null, ALL).pipe(Effect.map((rows) => rows.flatMap((i) => inboxHit(i, words))))
    }
    return SearchRepo.of({
      search: (teamId, request: SearchRequest) =>
        Effect.forEach(request.types, (type) => sources[type](teamId, request.words)).pipe(
          Effect.map((hits) => hits.flat().toSorted(searchOrder).slice(0, request.limit))
        )
    })
  })
)
