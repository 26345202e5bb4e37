import { Context, Effect, Layer } from "effect"
import type { PersistenceUnavailable, TeamId } from "../../shared/model.ts"
import { searchWords } from "../transactions/model.ts"
import { SearchInvalid } from "./SearchErrors.ts"
import { SEARCH_TYPES, type SearchHit, type SearchType } from "./SearchResult.ts"

/** What a search asks the store: every word must start a word of a result, of one of the types, at most `limit`. */
export interface SearchRequest {
  readonly words: ReadonlyArray<string>
  readonly types: ReadonlyArray<SearchType>
  readonly limit: number
}

/** The searchable tables of a team, ranked together. */
export class SearchRepo extends Context.Service<
  SearchRepo,
  {
    /** The team's best `limit` hits in `searchOrder`; never another team's rows. */
    readonly search: (
      teamId: TeamId,
      request: SearchRequest
    ) => Effect.Effect<ReadonlyArray<SearchHit>, PersistenceUnavailable>
  }
>()("@svc/domain/SearchRepo") {}

/** What a client asks: the text, the types (all when none) and how many results. */
export interface SearchQuery {
  readonly q: string
  readonly types?: ReadonlyArray<SearchType> | undefined
  readonly limit: number
}

/** One search box over a team's business-finance records. */
export class Search extends Context.Service<
  Search,
  {
    /** Ranked hits of every word of `q` (as word prefixes); refused naming `q` when it has no letters or digits. */
    readonly search: (
      teamId: TeamId,
      query: SearchQuery
    ) => Effect.Effect<ReadonlyArray<SearchHit>, SearchInvalid | PersistenceUnavailable>
  }
>()("@svc/domain/Search") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* SearchRepo
    return Search.of({
      search: Effect.fn("Search.search")(function* (teamId: TeamId, query: SearchQuery) {
        const words = searchWords(query.q)
        if (words.length === 0) {
          return yield* new SearchInvalid({ field: "q", message: "expected a word of letters or digits" })
        }
        const types = query.types === undefined || query.types.length === 0 ? SEARCH_TYPES : [...new Set(query.types)]
        return yield* repo.search(teamId, { words, types, limit: query.limit })
      })
    })
  })
  static readonly layer = Layer.effect(Search, Search.make)
}
