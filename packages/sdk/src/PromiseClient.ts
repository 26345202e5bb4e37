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

/** The slice's routes as plain Promises; each rejects with an `ApiError`. */
export interface PromiseClient {
  readonly createTeam: (input: CreateTeamInput) => Promise<Team>
  readonly listTeams: () => Promise<{ readonly data: ReadonlyArray<Team> }>
  readonly me: () => Promise<User>
  readonly listAccounts: () => Promise<{ readonly data: ReadonlyArray<Account> }>
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
    listTeams: () => run(client.me.listTeams()),
    me: () => run(client.me.me()),
    listAccounts: () => run(client.accounts.list()),
    getAccount: (id) => run(client.accounts.get({ params: { id } })),
    getBalance: () => run(client.accounts.balance()),
    health: () => run(client.system.health())
  }
}
