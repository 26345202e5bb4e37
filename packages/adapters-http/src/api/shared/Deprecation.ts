import { Context } from "effect"
import { HttpApiMiddleware, OpenApi } from "effect/http-api"

/** When a deprecated route stopped being recommended and when it stops answering, both UTC dates (YYYY-MM-DD). */
export interface DeprecationSchedule {
  readonly deprecatedOn: string
  readonly sunsetOn: string
}

/** The deprecation of an endpoint, read by the `DeprecationHeaders` middleware. */
export class Deprecation extends Context.Service<Deprecation, DeprecationSchedule>()(
  "@svc/adapters-http/Deprecation"
) {}

/**
 * The annotations of a deprecated endpoint (`endpoint.annotateMerge(deprecated({...}))`): its schedule, for the
 * response headers, and `deprecated: true` in the OpenAPI document.
 */
export const deprecated = (schedule: DeprecationSchedule) =>
  Context.make(Deprecation, schedule).pipe(Context.add(OpenApi.Deprecated, true))

/** Adds `Deprecation`, `Sunset` and `Link: rel="deprecation"` to every answer of an endpoint annotated deprecated. */
export class DeprecationHeaders extends HttpApiMiddleware.Service<DeprecationHeaders>()(
  "@svc/adapters-http/DeprecationHeaders"
) {}
