import { BankAccountType, BankAccountView, KnownCurrency } from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  CommonErrors,
  Conflict,
  Flag,
  Forbidden,
  ListOf,
  ListQuery,
  NotFound,
  PlatformAuth,
  RequiredScope,
  UuidParam
} from "../../shared/index.ts"

/** A bank account, amounts in major units of their currency. */
export const BankAccountResponse = BankAccountView

const Name = Schema.String.check(
  Schema.isTrimmed({ message: "must not start or end with spaces" }),
  Schema.isBetweenLength(1, 200, { message: "expected 1 to 200 characters" })
)

export const CreateBankAccountRequest = Schema.Struct({
  name: Name,
  type: Schema.optionalKey(BankAccountType),
  currency: KnownCurrency,
  balance: Schema.optionalKey(Schema.Finite),
  baseBalance: Schema.optionalKey(Schema.NullOr(Schema.Finite)),
  enabled: Schema.optionalKey(Schema.Boolean),
  /** The twin's clients send `manual: true`; every account opened here is manual, so `false` is refused. */
  manual: Schema.optionalKey(Schema.Literal(true))
})

export const UpdateBankAccountRequest = Schema.Struct({
  name: Schema.optionalKey(Name),
  type: Schema.optionalKey(BankAccountType),
  balance: Schema.optionalKey(Schema.Finite),
  baseBalance: Schema.optionalKey(Schema.NullOr(Schema.Finite)),
  enabled: Schema.optionalKey(Schema.Boolean)
})

const errors = [...CommonErrors, Forbidden] as const
const id = { id: UuidParam }

/** A team's bank accounts, manual and connected. Session, OAuth or generic API key. */
export class BankAccountsApi extends HttpApiGroup.make("bankAccounts")
  .add(
    HttpApiEndpoint.get("list", "/bank-accounts", {
      query: {
        ...ListQuery,
        enabled: Schema.optionalKey(Flag),
        manual: Schema.optionalKey(Flag),
        type: Schema.optionalKey(BankAccountType)
      },
      success: ListOf(BankAccountResponse),
      error: errors
    })
      .annotate(RequiredScope, "bank-accounts.read")
      .annotate(OpenApi.Summary, "List bank accounts")
      .annotate(
        OpenApi.Description,
        "The team's bank accounts, newest first; `enabled`, `manual` and `type` narrow the list."
      ),
    HttpApiEndpoint.post("create", "/bank-accounts", {
      payload: CreateBankAccountRequest,
      success: BankAccountResponse.pipe(HttpApiSchema.status(201)),
      error: errors
    })
      .annotate(RequiredScope, "bank-accounts.write")
      .annotate(OpenApi.Summary, "Create a manual bank account")
      .annotate(
        OpenApi.Description,
        "Opens a manual account (type `depository` by default; `manual` may be sent, and only as `true`) with a balance in major units of its currency (no " +
          "more decimals than it has). Its base balance, in the team's base currency, is the balance itself when the " +
          "currencies match, else `baseBalance` when given, else the balance converted at the team's exchange rate of " +
          "today (null without one)."
      ),
    HttpApiEndpoint.get("get", "/bank-accounts/:id", {
      params: id,
      success: BankAccountResponse,
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "bank-accounts.read")
      .annotate(OpenApi.Summary, "Get a bank account"),
    HttpApiEndpoint.patch("update", "/bank-accounts/:id", {
      params: id,
      payload: UpdateBankAccountRequest,
      success: BankAccountResponse,
      error: [...errors, NotFound, Conflict]
    })
      .annotate(RequiredScope, "bank-accounts.write")
      .annotate(OpenApi.Summary, "Update a bank account")
      .annotate(
        OpenApi.Description,
        "Renames, retypes, enables or disables an account; sets a manual account's balance (the base balance follows " +
          "as on creation). A connected account's balance comes from its bank (409 `connected_account`)."
      ),
    HttpApiEndpoint.delete("delete", "/bank-accounts/:id", {
      params: id,
      success: BankAccountResponse,
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "bank-accounts.write")
      .annotate(OpenApi.Summary, "Delete a bank account")
      .annotate(OpenApi.Description, "Deletes the account with its transactions and answers it.")
  )
  .middleware(PlatformAuth) {}
