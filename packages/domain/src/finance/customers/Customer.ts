import { Schema } from "effect"
import { TeamId } from "../../shared/model.ts"

/** A customer a team bills or works for. Every field but the name is optional (null). */
export const Customer = Schema.Struct({
  id: Schema.String,
  teamId: TeamId,
  name: Schema.String,
  email: Schema.NullOr(Schema.String),
  billingEmail: Schema.NullOr(Schema.String),
  phone: Schema.NullOr(Schema.String),
  website: Schema.NullOr(Schema.String),
  contact: Schema.NullOr(Schema.String),
  addressLine1: Schema.NullOr(Schema.String),
  addressLine2: Schema.NullOr(Schema.String),
  city: Schema.NullOr(Schema.String),
  state: Schema.NullOr(Schema.String),
  zip: Schema.NullOr(Schema.String),
  countryCode: Schema.NullOr(Schema.String),
  vatNumber: Schema.NullOr(Schema.String),
  note: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type Customer = typeof Customer.Type

/** The fields a client sets on a customer. */
export const CUSTOMER_FIELDS = [
  "name",
  "email",
  "billingEmail",
  "phone",
  "website",
  "contact",
  "addressLine1",
  "addressLine2",
  "city",
  "state",
  "zip",
  "countryCode",
  "vatNumber",
  "note"
] as const

const { teamId: _teamId, ...clientFields } = Customer.fields

/** A customer as clients see it: every stored field but the team, and its object name. */
export const CustomerView = Schema.Struct({ object: Schema.Literal("customer"), ...clientFields })
export type CustomerView = typeof CustomerView.Type

/** The client view of a customer. */
export const customerView = ({ teamId: _teamId, ...customer }: Customer): CustomerView => ({
  ...customer,
  object: "customer"
})

/** The customer a transaction names (SPEC.md's Transaction.customer). */
export const customerRef = (customer: Customer) => ({
  id: customer.id,
  name: customer.name,
  website: customer.website ?? ""
})
