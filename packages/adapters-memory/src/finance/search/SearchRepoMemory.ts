import {
  type Customer,
  CustomersRepo,
  type PersistenceUnavailable,
  type SearchHit,
  SearchRepo,
  type SearchRequest,
  type SearchType,
  searchOrder,
  searchWords,
  type TeamId,
  type Transaction,
  TransactionsRepo,
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
  const rank = tokenRank(searchWords(title), searchWords(body.filter((b) => b !== null).join(" ")), words)
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

/** SearchRepo over the in-memory store, through the searched contexts' ports, ranked by `tokenRank`. */
export const SearchRepoMemory = Layer.effect(
  SearchRepo,
  Effect.gen(function* () {
    const transactions = yield* TransactionsRepo
    const customers = yield* CustomersRepo
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
        customers.list(teamId, null, ALL).pipe(Effect.map((rows) => rows.flatMap((c) => customerHit(c, words))))
    }
    return SearchRepo.of({
      search: (teamId, request: SearchRequest) =>
        Effect.forEach(request.types, (type) => sources[type](teamId, request.words)).pipe(
          Effect.map((hits) => hits.flat().toSorted(searchOrder).slice(0, request.limit))
        )
    })
  })
)
