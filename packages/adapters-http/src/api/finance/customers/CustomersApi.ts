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

/** An optional field that null clears, described with an example. */
const optional = <S extends Schema.Top>(schema: S, description: string, example: S["Type"]) =>
  Schema.optionalKey(
    Schema.NullOr(schema).annotate({ description: `${description}; null clears it.`, examples: [example] })
  )

const CustomerFields = {
  email: optional(Email, "The customer's e-mail address (at most 320 characters)", "ap@globex.example"),
  billingEmail: optional(Email, "Where invoices are sent, when not `email`", "billing@globex.example"),
  phone: optional(Text(50), "The customer's phone number (1..50 characters)", "+1 415 555 0100"),
  website: optional(HttpUrl, "The customer's web address (http or https)", "https://globex.example"),
  contact: optional(Text(200), "The person to address (1..200 characters)", "Hank Scorpio"),
  addressLine1: optional(Text(200), "The first line of the billing address (1..200 characters)", "1 Globex Way"),
  addressLine2: optional(Text(200), "The second line of the billing address (1..200 characters)", "Suite 400"),
  city: optional(Text(100), "The billing address's city (1..100 characters)", "Cypress Creek"),
  state: optional(Text(100), "The billing address's state or region (1..100 characters)", "OR"),
  zip: optional(Text(20), "The billing address's postal code (1..20 characters)", "97000"),
  countryCode: optional(CountryCode, "The billing address's country, an ISO 3166-1 alpha-2 code in upper case", "US"),
  vatNumber: optional(Text(50), "The customer's VAT or tax number (1..50 characters)", "US123456789"),
  note: optional(
    Schema.String.check(Schema.isMaxLength(5000)),
    "The team's note on the customer (at most 5000 characters)",
    "Pays net 30"
  ),
  description: optional(
    Schema.String.check(Schema.isMaxLength(5000)),
    "What the customer is and does, in the team's words (at most 5000 characters)",
    "Industrial anvils, West Coast distributor"
  ),
  tags: Schema.optionalKey(
    Schema.Array(
      Schema.Struct({
        id: Schema.String.check(Schema.isUUID()).annotate({ description: "One of the team's tags, by id" }),
        name: Schema.optionalKey(
          Schema.String.annotate({ description: "The tag's name, as the twin's clients send it; not stored" })
        )
      })
    )
      .check(Schema.isMaxLength(50))
      .annotate({ description: "The customer's tags (at most 50): the team's tags, by id; replaces them when given" })
  )
}

const CustomerName = Text(200).annotate({
  description: "The customer's name as invoices show it (1..200 characters, no leading or trailing spaces).",
  examples: ["Globex Corporation"]
})

export const CreateCustomerRequest = Schema.Struct({ name: CustomerName, ...CustomerFields })
export const UpdateCustomerRequest = Schema.Struct({ name: Schema.optionalKey(CustomerName), ...CustomerFields })

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
