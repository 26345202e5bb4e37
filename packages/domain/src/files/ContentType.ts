import { Schema } from "effect"

/** The longest content type the service takes: RFC 6838 names run to 127 characters each, parameters take the rest. */
export const MAX_CONTENT_TYPE_LENGTH = 255

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+"
const QUOTED = String.raw`"(?:[\t\x20\x21\x23-\x5b\x5d-\x7e]|\\[\t\x20-\x7e])*"`
const PARAMETER = String.raw`[\t ]*;[\t ]*(?:${TOKEN}=(?:${TOKEN}|${QUOTED}))?`
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(?:${PARAMETER})*$`, "u")

/**
 * A media type as RFC 9110 (8.3.1) writes it: `type/subtype` of token characters, then `; name=value` parameters (a
 * token or a quoted string), at most 255 characters, ASCII only, no CR, LF or other control character (a tab only as
 * whitespace around `;`). Every content type the service takes passes it where it enters, and a stored file is served
 * with its type only when the type passes it, so a content type is never a header value that could split or end a
 * response's headers.
 */
export const ContentType = Schema.String.check(
  Schema.isMaxLength(MAX_CONTENT_TYPE_LENGTH, {
    message: `expected a content type of at most ${MAX_CONTENT_TYPE_LENGTH} characters`
  }),
  Schema.isPattern(MEDIA_TYPE, {
    message: "expected a media type such as application/pdf or text/plain; charset=utf-8 (RFC 9110)"
  })
)

/** The type of content nothing more is known of. */
export const UNKNOWN_CONTENT_TYPE = "application/octet-stream"
