import { Schema } from "effect"
import { TeamId } from "../../shared/model.ts"
import { TagView } from "../tags/model.ts"

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
  description: Schema.NullOr(Schema.String),
  /** The team's tags the customer carries. */
  tagIds: Schema.Array(Schema.String),
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
  "note",
  "description"
] as const

/** A stored customer with its tags (by name). */
export const CustomerWithTags = Schema.Struct({ ...Customer.fields, tags: Schema.Array(TagView) })
export type CustomerWithTags = typeof CustomerWithTags.Type

/** How many of the team's invoices and tracker projects name a customer. */
export const CustomerCounts = Schema.Struct({ invoiceCount: Schema.Int, projectCount: Schema.Int })
export type CustomerCounts = typeof CustomerCounts.Type

/** No invoice or project names the customer. */
export const NO_COUNTS: CustomerCounts = { invoiceCount: 0, projectCount: 0 }

/** A customer with what it is shown with: its tags and how many invoices and projects name it. */
export type CustomerDetails = CustomerWithTags & CustomerCounts

const { teamId: _teamId, tagIds: _tagIds, ...clientFields } = Customer.fields

/** A customer as clients see it: every stored field but the team, its tags, counts and object name. */
export const CustomerView = Schema.Struct({
  object: Schema.Literal("customer"),
  ...clientFields,
  tags: Schema.Array(TagView),
  ...CustomerCounts.fields
})
export type CustomerView = typeof CustomerView.Type

/** The client view of a customer. */
export const customerView = ({ teamId: _teamId, tagIds: _tagIds, ...customer }: CustomerDetails): CustomerView => ({
  ...customer,
  object: "customer"
})

/** The customer a transaction names (SPEC.md's Transaction.customer). */
export const customerRef = (customer: Customer) => ({
  id: customer.id,
  name: customer.name,
  website: customer.website ?? ""
})
