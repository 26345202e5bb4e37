import { Schema } from "effect"

/** The store could not be reached or answered unexpectedly; the operation did not complete. */
export class PersistenceUnavailable extends Schema.TaggedError<PersistenceUnavailable>()("PersistenceUnavailable", {
  operation: Schema.String
}) {}

/** Whether a failure is a store outage (the operation did not complete and may be retried). */
export const isPersistenceUnavailable = (u: unknown): u is PersistenceUnavailable =>
  typeof u === "object" && u !== null && (u as { readonly _tag?: unknown })._tag === "PersistenceUnavailable"
