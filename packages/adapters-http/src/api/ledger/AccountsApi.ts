import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import {
  AgentAuth,
  CommonErrors,
  Forbidden,
  ListOf,
  ListQuery,
  NotFound,
  RequiredScope,
  TooManyRequests,
  UuidParam
} from "../shared/index.ts"

/** A balance in minor units: posted, reserved by pending holds, and available to spend. */
export const BalanceAmounts = Schema.Struct({ posted: Schema.Int, pending: Schema.Int, available: Schema.Int })

/** A spend account seen through /v1. */
export const AccountResponse = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("account"),
  name: Schema.String,
  currency: Schema.String,
  mode: Schema.Literals(["live", "test"]),
  balance: BalanceAmounts
})

/** The balance of the credential's account. */
export const BalanceResponse = Schema.Struct({
  accountId: Schema.String,
  currency: Schema.String,
  posted: Schema.Int,
  pending: Schema.Int,
  available: Schema.Int
})

const errors = [...CommonErrors, Forbidden, TooManyRequests] as const

/** /v1 accounts and balance, for spending keys and team API keys. */
export class AccountsApi extends HttpApiGroup.make("accounts")
  .add(
    HttpApiEndpoint.get("list", "/v1/accounts", {
      query: ListQuery,
      success: ListOf(AccountResponse),
      error: errors
    })
      .annotate(RequiredScope, "accounts.read")
      .annotate(OpenApi.Summary, "List spend accounts")
      .annotate(OpenApi.Description, "The spend accounts of the credential's team in the credential's mode."),
    HttpApiEndpoint.get("get", "/v1/accounts/:id", {
      params: { id: UuidParam },
      success: AccountResponse,
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "accounts.read")
      .annotate(OpenApi.Summary, "Get a spend account")
      .annotate(OpenApi.Description, "One account of the credential's team and mode."),
    HttpApiEndpoint.get("balance", "/v1/balance", { success: BalanceResponse, error: [...errors, NotFound] })
      .annotate(RequiredScope, "accounts.read")
      .annotate(OpenApi.Summary, "Get the balance")
      .annotate(
        OpenApi.Description,
        "The balance of the credential's account (a team API key: the team's spend account)."
      )
  )
  .middleware(AgentAuth)
  .annotate(OpenApi.Description, "Accounts and balance (agent spend)") {}
