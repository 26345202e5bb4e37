import { Schema } from "effect"

/** The team has no bank account with that id (another team's is not found either). */
export class BankAccountNotFound extends Schema.TaggedError<BankAccountNotFound>()("BankAccountNotFound", {
  bankAccountId: Schema.String,
  field: Schema.NullOr(Schema.String)
}) {}

/** A connected account's balance comes from its bank; it cannot be set by hand. */
export class BankAccountConnected extends Schema.TaggedError<BankAccountConnected>()("BankAccountConnected", {
  bankAccountId: Schema.String
}) {}
