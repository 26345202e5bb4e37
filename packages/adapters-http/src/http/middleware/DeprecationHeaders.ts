import { Context, Effect, Layer, Option } from "effect"
import { HttpServerResponse } from "effect/http"
import { Deprecation, DeprecationHeaders, type DeprecationSchedule } from "../../api/shared/index.ts"

/** Where a client reads what replaces a deprecated route: the served changelog. */
const CHANGELOG_PATH = "/changelog"

const midnightUtc = (date: string) => Date.parse(`${date}T00:00:00Z`)

/**
 * The headers of a deprecated route: `Deprecation: @<unix seconds>` (RFC 9745), `Sunset: <IMF-fixdate>` (RFC 8594)
 * and a `Link` to the changelog with `rel="deprecation"`.
 */
const deprecationHeaders = (schedule: DeprecationSchedule): Record<string, string> => ({
  deprecation: `@${midnightUtc(schedule.deprecatedOn) / 1000}`,
  sunset: new Date(midnightUtc(schedule.sunsetOn)).toUTCString(),
  link: `<${CHANGELOG_PATH}>; rel="deprecation"; type="application/json"`
})

/** The DeprecationHeaders middleware: endpoints without a `Deprecation` annotation answer unchanged. */
export const DeprecationHeadersLive = Layer.succeed(DeprecationHeaders, (httpEffect, { endpoint }) =>
  Option.match(Context.getOption(endpoint.annotations, Deprecation), {
    onNone: () => httpEffect,
    onSome: (schedule) => Effect.map(httpEffect, HttpServerResponse.setHeaders(deprecationHeaders(schedule)))
  })
)
