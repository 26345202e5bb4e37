import { Schema } from "effect"

/** An http(s) URL of at most 2048 characters. */
export const HttpUrl = Schema.String.check(
  Schema.isMaxLength(2048),
  Schema.isPattern(/^https?:\/\/[^\s/$.?#][^\s]*$/u, { message: "expected an http(s) URL" })
)
