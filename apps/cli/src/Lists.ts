import { type Page, paginateStream } from "@svc/sdk"
import { Console, Effect, Option, Stream } from "effect"
import { Flag } from "effect/cli"
import { type Connection, call } from "./Api.ts"
import { JsonOutput } from "./Output.ts"

/** `--limit` and `--all`, the flags of every list command. */
export const listFlags = {
  limit: Flag.Int("limit").pipe(
    Flag.withDescription("How many items a page holds (1..100; the service's default otherwise)"),
    Flag.optional
  ),
  all: Flag.Boolean("all").pipe(
    Flag.withDescription("Walk every page (with --json: one JSON array of every item)"),
    Flag.withDefault(false)
  )
}

/** The query with `limit` when `--limit` was given. */
export const limited = <Q extends object>(query: Q, limit: Option.Option<number>) =>
  Option.isSome(limit) ? { ...query, limit: limit.value } : query

/**
 * Lists through a route: one page (its JSON under `--json`, cursor of the next page included), or every page with
 * `--all`; `human` renders the items.
 */
export const listCommand = <R extends { readonly query: { readonly cursor?: string } }, A, E>(
  connection: Connection,
  list: (request: R) => Effect.Effect<Page<A>, E>,
  request: R,
  all: boolean,
  human: (items: ReadonlyArray<A>) => string
) =>
  Effect.gen(function* () {
    const json = yield* JsonOutput
    const route = (r: R) => call(connection, list(r))
    if (all) {
      const items = yield* Stream.runCollect(paginateStream(route, request))
      return yield* Console.log(json ? JSON.stringify(items, null, 2) : human(items))
    }
    const page = yield* route(request)
    if (json) return yield* Console.log(JSON.stringify(page, null, 2))
    yield* Console.log(human(page.data))
    if (page.meta.hasNextPage) yield* Console.log("(more: --all walks every page)")
  })
