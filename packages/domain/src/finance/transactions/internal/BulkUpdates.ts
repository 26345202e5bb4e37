import { Effect } from "effect"
import { TransactionInvalid } from "../TransactionErrors.ts"
import type { BulkUpdate, UpdateTransaction } from "../TransactionInput.ts"

/**
 * One transaction's part of an update: its id, its changes, the field an unknown id is named by (null for the
 * single update, whose id is the path's) and the prefix its changes' fields are named with.
 */
export interface UpdateStep {
  readonly id: string
  readonly changes: UpdateTransaction
  readonly idField: string | null
  readonly prefix: string
}

/**
 * A bulk update in either form as one step per transaction: the array form names each item by its index
 * (`2.amount`, `2.id`), the twin's `{ids, ...changes}` names the changes as given and an id by its place (`ids.2`).
 * The twin's `categorySlug: null` clears the category and its `tagId` is the tag to add to every transaction (null
 * when none); the same transaction twice is refused.
 */
export const bulkUpdateOf = (
  request: BulkUpdate
): Effect.Effect<{ readonly steps: ReadonlyArray<UpdateStep>; readonly tagId: string | null }, TransactionInvalid> =>
  Effect.gen(function* () {
    const steps = yield* stepsOf(request)
    const duplicate = steps.findIndex((step, i) => steps.findIndex((other) => other.id === step.id) !== i)
    if (duplicate >= 0) {
      return yield* new TransactionInvalid({ field: steps[duplicate]!.idField!, message: "the same transaction twice" })
    }
    return { steps, tagId: "ids" in request ? (request.tagId ?? null) : null }
  })

const stepsOf = (request: BulkUpdate): Effect.Effect<ReadonlyArray<UpdateStep>, TransactionInvalid> => {
  if (!("ids" in request)) {
    return Effect.succeed(
      request.map(({ id, ...changes }, i) => ({ id, changes, idField: `${i}.id`, prefix: `${i}.` }))
    )
  }
  const { ids, tagId, categorySlug, ...rest } = request
  if (categorySlug === null && rest.categoryId !== undefined) {
    return Effect.fail(
      new TransactionInvalid({ field: "categorySlug", message: "give categoryId or categorySlug, not both" })
    )
  }
  const changes: UpdateTransaction =
    categorySlug === null
      ? { ...rest, categoryId: null }
      : categorySlug === undefined
        ? rest
        : { ...rest, categorySlug }
  return Effect.succeed(ids.map((id, i) => ({ id, changes, idField: `ids.${i}`, prefix: "" })))
}
