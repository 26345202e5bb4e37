import { PersistenceUnavailable } from "@svc/domain"
import { Effect, Option, Schema, SchemaTransformation } from "effect"

type Rows = ReadonlyArray<Readonly<Record<string, unknown>>>

const normalize = (row: Readonly<Record<string, unknown>>): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(row).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value])
  )

type RowsDecoder = (rows: unknown) => Effect.Effect<ReadonlyArray<unknown>, Schema.SchemaError>

/** The decoder of an array of `schema`, built once per schema: building it costs more than decoding a few rows. */
const rowsDecoders = new WeakMap<Schema.Decoder<unknown>, RowsDecoder>()

const rowsDecoder = <S extends Schema.Decoder<unknown>>(
  schema: S
): ((rows: unknown) => Effect.Effect<ReadonlyArray<S["Type"]>, Schema.SchemaError>) => {
  let decoder = rowsDecoders.get(schema)
  if (decoder === undefined) {
    decoder = Schema.decodeUnknownEffect(Schema.Array(schema)) as RowsDecoder
    rowsDecoders.set(schema, decoder)
  }
  return decoder as (rows: unknown) => Effect.Effect<ReadonlyArray<S["Type"]>, Schema.SchemaError>
}

/**
 * Decodes result rows through a domain schema (timestamps read back as ISO 8601 text). A row that does not decode is
 * a persistence failure, logged and answered as `PersistenceUnavailable`, never a value of the wrong shape.
 */
export const decodeRows =
  <S extends Schema.Decoder<unknown>>(schema: S, operation: string) =>
  (rows: Rows): Effect.Effect<ReadonlyArray<S["Type"]>, PersistenceUnavailable> =>
    rowsDecoder(schema)(rows.map(normalize)).pipe(
      Effect.catch((error) =>
        Effect.logError(`database operation ${operation} read a row that does not decode`, error).pipe(
          Effect.andThen(Effect.fail(new PersistenceUnavailable({ operation })))
        )
      )
    )

/** `decodeRows` for a query of at most one row: the decoded row, if any. */
export const decodeFirst =
  <S extends Schema.Decoder<unknown>>(schema: S, operation: string) =>
  (rows: Rows): Effect.Effect<Option.Option<S["Type"]>, PersistenceUnavailable> =>
    decodeRows(schema, operation)(rows).pipe(Effect.map((decoded) => Option.fromNullishOr(decoded[0])))

/**
 * A bigint column (text or bigint from the driver) as a safe integer. A value beyond the safe-integer range does not
 * decode, so it is a persistence failure rather than a silently rounded amount.
 */
export const SafeIntegerColumn = Schema.Union([Schema.BigIntFromString, Schema.BigInt])
  .check(Schema.isBetweenBigInt({ minimum: BigInt(Number.MIN_SAFE_INTEGER), maximum: BigInt(Number.MAX_SAFE_INTEGER) }))
  .pipe(Schema.decodeTo(Schema.Int, SchemaTransformation.transform({ decode: Number, encode: BigInt })))
