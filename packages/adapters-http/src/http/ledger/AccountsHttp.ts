import { type AccountId, Ledger } from "@svc/domain"
import { accountBalanceView, accountView } from "@svc/domain/model"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { CurrentAgent, notFound } from "../../api/shared/index.ts"
import { listPaging, orServiceUnavailable } from "../shared/index.ts"

export const AccountsHttp = HttpApiBuilder.group(Api, "accounts", (handlers) =>
  Effect.gen(function* () {
    const { pageOfList } = yield* listPaging
    const ledger = yield* Ledger

    /** The agent's spend account `id`, or its own (else the mode's first) when `id` is null; 404 otherwise. */
    const visibleAccount = (id: string | null) =>
      Effect.gen(function* () {
        const agent = yield* CurrentAgent
        const missing = () => Effect.fail(notFound(id === null ? "this credential has no account" : `no account ${id}`))
        return yield* ledger
          .spendAccount(agent.teamId, agent.mode, (id ?? agent.accountId) as AccountId | null)
          .pipe(Effect.catchTags({ AccountNotFound: missing, NoSpendAccount: missing }))
      })

    return handlers
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const agent = yield* CurrentAgent
          const accounts = yield* ledger.accounts(agent.teamId, { mode: agent.mode, kind: "spend" })
          return yield* pageOfList(`accounts:${agent.teamId}:${agent.mode}`, query, accounts, accountView)
        }).pipe(orServiceUnavailable)
      )
      .handle("get", ({ params }) => visibleAccount(params.id).pipe(Effect.map(accountView), orServiceUnavailable))
      .handle("balance", () => visibleAccount(null).pipe(Effect.map(accountBalanceView), orServiceUnavailable))
  })
)
