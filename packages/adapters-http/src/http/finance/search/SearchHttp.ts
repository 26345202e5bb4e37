import { Search, type SearchType, searchResultView } from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../../api/Api.ts"
import { invalidField, orServiceUnavailable, principalTeamId } from "../../shared/index.ts"

export const SearchHttp = HttpApiBuilder.group(Api, "search", (handlers) =>
  Effect.gen(function* () {
    const search = yield* Search
    return handlers.handle("search", ({ query }) =>
      Effect.gen(function* () {
        const teamId = yield* principalTeamId
        const q = query.q ?? query.searchTerm
        if (q === undefined) return yield* invalidField("query.q", "required: the text to search for (q or searchTerm)")
        const hits = yield* search.search(teamId, {
          q,
          types: query.types?.split(",") as ReadonlyArray<SearchType> | undefined,
          limit: query.limit ?? 10
        })
        return { data: hits.map(searchResultView) }
      }).pipe(
        Effect.catchTag("SearchInvalid", (e) => Effect.fail(invalidField(`query.${e.field}`, e.message))),
        orServiceUnavailable
      )
    )
  })
)
