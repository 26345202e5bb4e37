import type {
  AccountResponse,
  BalanceResponse,
  CreateTeamRequest,
  TeamResponse,
  UserResponse
} from "@svc/adapters-http/api"
import { Effect } from "effect"
import { FetchHttpClient } from "effect/http"
import { toApiError } from "./ApiError.ts"
import { type ClientOptions, makeClient } from "./Client.ts"

/** A team as its member sees it. */
export type Team = typeof TeamResponse.Type
/** The signed-in user, their current team and its file key. */
export type User = typeof UserResponse.Type
/** A spend account with its balance in minor units. */
export type Account = typeof AccountResponse.Type
/** The balance of the credential's account, in minor units. */
export type Balance = typeof BalanceResponse.Type
/** The body of POST /teams. */
export type CreateTeamInput = typeof CreateTeamRequest.Type
/** Which page of a list to fetch: the previous page's `meta.cursor`, and 1..100 items (default 20). */
export interface ListParams {
  readonly cursor?: string
  readonly limit?: number
}
/** A page of a newest-first list. */
export interface Page<A> {
  readonly data: ReadonlyArray<A>
  readonly meta: { readonly cursor: string | null; readonly hasNextPage: boolean; readonly hasPreviousPage: boolean }
}

/** The slice's routes as plain Promises; each rejects with an `ApiError`. */
export interface PromiseClient {
  readonly createTeam: (input: CreateTeamInput) => Promise<Team>
  readonly listTeams: (params?: ListParams) => Promise<Page<Team>>
  readonly me: () => Promise<User>
  readonly listAccounts: (params?: ListParams) => Promise<Page<Account>>
  readonly getAccount: (id: string) => Promise<Account>
  readonly getBalance: () => Promise<Balance>
  readonly health: () => Promise<{ readonly status: "ok" }>
}

/** A Promise client over `fetch`, with the published retry policy (numbers overridable through `retry`). */
export const createClient = (options: ClientOptions): PromiseClient => {
  const client = Effect.runSync(makeClient(options).pipe(Effect.provide(FetchHttpClient.layer)))
  const run = <A, E>(call: Effect.Effect<A, E>): Promise<A> =>
    Effect.runPromise(call.pipe(Effect.catch((failure) => Effect.flatMap(toApiError(failure), Effect.fail))))
  return {
    createTeam: (input) => run(client.teams.create({ payload: input })),
    listTeams: (params = {}) => run(client.me.listTeams({ query: params })),
    me: () => run(client.me.me()),
    listAccounts: (params = {}) => run(client.accounts.list({ query: params })),
    getAccount: (id) => run(client.accounts.get({ params: { id } })),
    getBalance: () => run(client.accounts.balance()),
    health: () => run(client.system.health())
  }
}
