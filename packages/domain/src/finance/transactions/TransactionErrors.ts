import { Schema } from "effect"

/** A transaction request could not be taken as it is: `field` names the input (`amount`, `3.amount`, `from`). */
export class TransactionInvalid extends Schema.TaggedError<TransactionInvalid>()("TransactionInvalid", {
  field: Schema.String,
  message: Schema.String
}) {}

/** The team has no such transaction (another team's is not found either); `field` names it in a bulk request. */
export class TransactionNotFound extends Schema.TaggedError<TransactionNotFound>()("TransactionNotFound", {
  transactionId: Schema.String,
  field: Schema.NullOr(Schema.String)
}) {}

/** A category, tag or bank account a request names is not the team's (unknown or another team's). */
export class TransactionReferenceNotFound extends Schema.TaggedError<TransactionReferenceNotFound>()(
  "TransactionReferenceNotFound",
  {
    kind: Schema.Literals(["category", "tag", "bank account"]),
    id: Schema.String,
    field: Schema.String
  }
) {}

/** The transaction has no such attachment. */
export class TransactionAttachmentNotFound extends Schema.TaggedError<TransactionAttachmentNotFound>()(
  "TransactionAttachmentNotFound",
  { transactionId: Schema.String, attachmentId: Schema.String }
) {}
