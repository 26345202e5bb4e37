import { AccountBalanceView, AccountView } from "@svc/domain/model"
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

/** A spend account seen through /v1. */
export const AccountResponse = AccountView

/** The balance of the credential's account. */
export const BalanceResponse = AccountBalanceView

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
  .middleware(AgentAuth) {}
