import { type AccountId, type AccountWithBalance, Ledger } from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { notFound } from "../api/ApiErrors.ts"
import { CurrentAgent } from "../api/Security.ts"
import { orServiceUnavailable } from "./Failures.ts"
import { pageOfList } from "./Lists.ts"

/** An account as /v1 shows it. */
export const accountResponse = (account: AccountWithBalance) => ({
  id: account.id,
  object: "account" as const,
  name: account.name,
  currency: account.currency,
  mode: account.mode,
  balance: account.balance
})

export const AccountsHttp = HttpApiBuilder.group(Api, "accounts", (handlers) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger

    const visibleAccount = (id: string) =>
      Effect.gen(function* () {
        const agent = yield* CurrentAgent
        const account = yield* ledger
          .account(agent.teamId, id as AccountId)
          .pipe(Effect.catchTag("AccountNotFound", () => Effect.fail(notFound(`no account ${id}`))))
        if (account.mode !== agent.mode || account.kind !== "spend") return yield* notFound(`no account ${id}`)
        return account
      })

    return handlers
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const agent = yield* CurrentAgent
          const accounts = yield* ledger.accounts(agent.teamId, { mode: agent.mode, kind: "spend" })
          return yield* pageOfList(query, accounts, accountResponse)
        }).pipe(orServiceUnavailable)
      )
      .handle("get", ({ params }) => visibleAccount(params.id).pipe(Effect.map(accountResponse), orServiceUnavailable))
      .handle("balance", () =>
        Effect.gen(function* () {
          const agent = yield* CurrentAgent
          const account =
            agent.accountId !== null
              ? yield* visibleAccount(agent.accountId)
              : (yield* ledger.accounts(agent.teamId, { mode: agent.mode, kind: "spend" }))[0]
          if (account === undefined) return yield* notFound("this credential has no account")
          return { accountId: account.id, currency: account.currency, ...account.balance }
        }).pipe(orServiceUnavailable)
      )
  })
)
