import { EXAMPLE_ID } from "@svc/domain/model"
import { Schema } from "effect"

const PageLimit = Schema.NumberFromString.check(
  Schema.isInt({ message: "expected an integer between 1 and 100" }),
  Schema.isBetween({ minimum: 1, maximum: 100 }, { message: "expected an integer between 1 and 100" })
)

/**
 * A `?cursor=&limit=` list query (limit 1..100, default 20). `pageSize` is the twin's name for `limit`, accepted with
 * the same bounds; when both are sent `limit` wins.
 */
export const ListQuery = {
  cursor: Schema.optionalKey(
    Schema.String.check(Schema.isMaxLength(512)).annotate({
      description:
        "The `meta.cursor` of the previous page, to read the next one (at most 512 characters); omit it for the first page."
    })
  ),
  limit: Schema.optionalKey(
    PageLimit.pipe(
      Schema.annotateEncoded({ description: "How many items a page holds, 1..100 (default 20).", examples: ["20"] })
    )
  ),
  pageSize: Schema.optionalKey(
    PageLimit.pipe(
      Schema.annotateEncoded({
        description: "The twin's name for `limit`, 1..100; `limit` wins when both are sent.",
        examples: ["20"]
      })
    )
  )
}

/** A yes/no query parameter: `true` or `false`. */
export const Flag = Schema.Literals(["true", "false"])

/** The list envelope: `{data, meta: {cursor, hasNextPage, hasPreviousPage}}`. */
/**
 * An e-mail address: one `@`, a dot after it, no spaces, at most 320 characters. `padded` also lets spaces surround it,
 * for a field the service trims before use.
 */
export const EmailAddress = (options: { readonly padded?: boolean } = {}) =>
  Schema.String.check(
    Schema.isMaxLength(320),
    Schema.isPattern(options.padded === true ? /^\s*[^\s@]+@[^\s@]+\.[^\s@]+\s*$/u : /^[^\s@]+@[^\s@]+\.[^\s@]+$/u, {
      message: "expected an e-mail address"
    })
  )

export const ListOf = <S extends Schema.Top>(item: S) =>
  Schema.Struct({
    data: Schema.Array(item).annotate({ description: "The items of this page, newest first." }),
    meta: Schema.Struct({
      cursor: Schema.NullOr(Schema.String).annotate({
        description: "Pass as `?cursor=` to read the next page; null on the last page."
      }),
      hasNextPage: Schema.Boolean.annotate({ description: "Whether a page follows this one." }),
      hasPreviousPage: Schema.Boolean.annotate({ description: "Whether a page precedes this one." })
    }).annotate({ description: "Where this page is in the list." })
  })

/** A resource's view with its one-time `secret`, as answered when the secret is issued. */
export const WithSecret = <Fields extends Schema.Struct.Fields>(view: Schema.Struct<Fields>) =>
  Schema.Struct({ ...view.fields, secret: Schema.String })

/** A UUID path parameter. */
export const UuidParam = Schema.String.check(Schema.isUUID(undefined, { message: "expected a UUID" })).annotate({
  description: "The id, a UUID.",
  examples: [EXAMPLE_ID]
})

/** An http(s) URL of at most 2048 characters (the domain's rule). */
export { HttpUrl } from "@svc/domain/model"
