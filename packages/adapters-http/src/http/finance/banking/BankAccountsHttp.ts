import {
  type BankAccountConnected,
  type BankAccountId,
  type BankAccountNotFound,
  BankAccounts,
  bankAccountView,
  type InvalidAmount
} from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../../api/Api.ts"
import { conflict } from "../../../api/shared/index.ts"
import { invalidField, listPaging, missingResource, orServiceUnavailable, principalTeamId } from "../../shared/index.ts"

const notFound = (e: BankAccountNotFound) => Effect.fail(missingResource("bank account", e.bankAccountId, e.field))
const invalidAmount = (e: InvalidAmount) => Effect.fail(invalidField(e.field, e.message))
const connected = (_: BankAccountConnected) =>
  Effect.fail(conflict("connected_account", "a connected account's balance comes from its bank"))

const flag = (value: "true" | "false" | undefined) => (value === undefined ? undefined : value === "true")

export const BankAccountsHttp = HttpApiBuilder.group(Api, "bankAccounts", (handlers) =>
  Effect.gen(function* () {
    const { pageOfList } = yield* listPaging
    const accounts = yield* BankAccounts
    return handlers
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          const filter = { enabled: flag(query.enabled), manual: flag(query.manual), type: query.type }
          const scope = `bank-accounts:${teamId}:${query.enabled ?? ""}:${query.manual ?? ""}:${query.type ?? ""}`
          return yield* pageOfList(scope, query, yield* accounts.list(teamId, filter), bankAccountView)
        }).pipe(orServiceUnavailable)
      )
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          return bankAccountView(yield* accounts.create(teamId, payload))
        }).pipe(Effect.catchTag("InvalidAmount", invalidAmount), orServiceUnavailable)
      )
      .handle("get", ({ params }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          return bankAccountView(yield* accounts.get(teamId, params.id as BankAccountId))
        }).pipe(Effect.catchTag("BankAccountNotFound", notFound), orServiceUnavailable)
      )
      .handle("update", ({ params, payload }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          return bankAccountView(yield* accounts.update(teamId, params.id as BankAccountId, payload))
        }).pipe(
          Effect.catchTags({
            BankAccountNotFound: notFound,
            InvalidAmount: invalidAmount,
            BankAccountConnected: connected
          }),
          orServiceUnavailable
        )
      )
      .handle("delete", ({ params }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          return bankAccountView(yield* accounts.remove(teamId, params.id as BankAccountId))
        }).pipe(Effect.catchTag("BankAccountNotFound", notFound), orServiceUnavailable)
      )
  })
)
