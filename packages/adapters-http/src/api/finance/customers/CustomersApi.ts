import { CustomerView } from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  CommonErrors,
  Forbidden,
  HttpUrl,
  ListOf,
  ListQuery,
  NotFound,
  PlatformAuth,
  RequiredScope,
  UuidParam
} from "../../shared/index.ts"

/** A customer as answered. */
export const CustomerResponse = CustomerView

const Text = (max: number) =>
  Schema.String.check(
    Schema.isTrimmed({ message: "must not start or end with spaces" }),
    Schema.isBetweenLength(1, max, { message: `expected 1 to ${max} characters` })
  )

const Email = Schema.String.check(
  Schema.isMaxLength(320),
  Schema.isPattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/u, { message: "expected an e-mail address" })
)

const CountryCode = Schema.String.check(
  Schema.isPattern(/^[A-Z]{2}$/u, { message: "expected an ISO 3166-1 alpha-2 country code in upper case, e.g. US" })
)

const optional = <S extends Schema.Top>(schema: S) => Schema.optionalKey(Schema.NullOr(schema))

const CustomerFields = {
  email: optional(Email),
  billingEmail: optional(Email),
  phone: optional(Text(50)),
  website: optional(HttpUrl),
  contact: optional(Text(200)),
  addressLine1: optional(Text(200)),
  addressLine2: optional(Text(200)),
  city: optional(Text(100)),
  state: optional(Text(100)),
  zip: optional(Text(20)),
  countryCode: optional(CountryCode),
  vatNumber: optional(Text(50)),
  note: optional(Schema.String.check(Schema.isMaxLength(5000))),
  description: optional(Schema.String.check(Schema.isMaxLength(5000))),
  /** The twin's shape: the team's tags by id; a `name` sent along is the tag's own and is not stored. */
  tags: Schema.optionalKey(
    Schema.Array(
      Schema.Struct({ id: Schema.String.check(Schema.isUUID()), name: Schema.optionalKey(Schema.String) })
    ).check(Schema.isMaxLength(50))
  )
}

export const CreateCustomerRequest = Schema.Struct({ name: Text(200), ...CustomerFields })
export const UpdateCustomerRequest = Schema.Struct({ name: Schema.optionalKey(Text(200)), ...CustomerFields })

/** What DELETE answers: the id of the customer that is gone. */
export const DeletedCustomer = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("customer"),
  deleted: Schema.Literal(true)
})

const errors = [...CommonErrors, Forbidden] as const
const id = { id: UuidParam }

/** A team's customers: session, OAuth or generic API key, by scope. */
export class CustomersApi extends HttpApiGroup.make("customers")
  .add(
    HttpApiEndpoint.get("list", "/customers", {
      query: { ...ListQuery, q: Schema.optionalKey(Schema.String.check(Schema.isBetweenLength(1, 200))) },
      success: ListOf(CustomerResponse),
      error: errors
    })
      .annotate(RequiredScope, "customers.read")
      .annotate(OpenApi.Summary, "List customers")
      .annotate(
        OpenApi.Description,
        "The team's customers, newest first; `q` keeps those whose name or e-mail contains it."
      ),
    HttpApiEndpoint.post("create", "/customers", {
      payload: CreateCustomerRequest,
      success: CustomerResponse.pipe(HttpApiSchema.status(201)),
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "customers.write")
      .annotate(OpenApi.Summary, "Create a customer")
      .annotate(OpenApi.Description, "`tags` names the team's tags by id (404 naming `tags[i].id` when one is not)."),
    HttpApiEndpoint.get("get", "/customers/:id", {
      params: id,
      success: CustomerResponse,
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "customers.read")
      .annotate(OpenApi.Summary, "Get a customer"),
    HttpApiEndpoint.patch("update", "/customers/:id", {
      params: id,
      payload: UpdateCustomerRequest,
      success: CustomerResponse,
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "customers.write")
      .annotate(OpenApi.Summary, "Update a customer")
      .annotate(
        OpenApi.Description,
        "Each field given replaces the stored one; null clears an optional field; `tags` replaces the customer's tags."
      ),
    HttpApiEndpoint.delete("delete", "/customers/:id", {
      params: id,
      success: DeletedCustomer,
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "customers.write")
      .annotate(OpenApi.Summary, "Delete a customer")
  )
  .middleware(PlatformAuth) {}
