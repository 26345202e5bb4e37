import type { Api } from "@svc/adapters-http/api"
import type { Effect, Schema, Types } from "effect"
import type { HttpClientError } from "effect/http"
import type { HttpApi, HttpApiClient, HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware } from "effect/http-api"

/** The groups of the service's contract. */
type Groups = typeof Api extends HttpApi.HttpApi<infer _Id, infer G> ? G : never

/** The request of a route as the SDK takes it: headers whose every field is optional may be left out. */
type Relaxed<R> = R extends { readonly headers: infer H }
  ? {} extends H
    ? Types.Simplify<Omit<R, "headers" | "responseMode" | "sseOptions"> & { readonly headers?: H }>
    : Types.Simplify<Omit<R, "responseMode" | "sseOptions">>
  : R extends { readonly responseMode?: unknown }
    ? keyof Omit<R, "responseMode" | "sseOptions"> extends never
      ? // biome-ignore lint/suspicious/noConfusingVoidType: a route without a request is called with no argument
        void
      : Types.Simplify<Omit<R, "responseMode" | "sseOptions">>
    : R

/** The request of an endpoint: its `params`, `query`, `payload` and `headers`, each where the route has them. */
export type RouteRequest<E extends HttpApiEndpoint.ConstraintRequest> = Relaxed<
  HttpApiEndpoint.ClientRequest<E["~Params"], E["~Query"], E["~Payload"], E["~Headers"], "decoded-only">
>

/** What an endpoint answers on success. */
export type RouteSuccess<E extends HttpApiEndpoint.ConstraintRequest> = HttpApiClient.SuccessType<E["~Success"]>

/** The errors an endpoint's call can fail with in the Effect client: the contract's, the transport's, decoding's. */
export type RouteError<E extends HttpApiEndpoint.ConstraintRequest> =
  | E["~Error"]["Type"]
  | HttpApiMiddleware.Error<E["~Middleware"]>
  | HttpClientError.HttpClientError
  | Schema.SchemaError

type Endpoints<G> = G extends HttpApiGroup.Constraint
  ? G["endpoints"] extends infer Es extends Readonly<Record<string, HttpApiEndpoint.ConstraintRequest>>
    ? Es
    : never
  : never

/** How a face of the SDK answers a call: an Effect with the route's typed failures, or a Promise. */
export type Face = "effect" | "promise"

type Answer<F extends Face, E extends HttpApiEndpoint.ConstraintRequest> = F extends "effect"
  ? Effect.Effect<RouteSuccess<E>, RouteError<E>>
  : Promise<RouteSuccess<E>>

type Route<F extends Face, E> = E extends HttpApiEndpoint.ConstraintRequest
  ? (request: RouteRequest<E>) => Answer<F, E>
  : never

/** Every route of the contract as `client.<group>.<endpoint>(request)`. */
export type Routes<F extends Face> = {
  readonly [G in Groups as HttpApiGroup.Identifier<G>]: {
    readonly [K in keyof Endpoints<G>]: Route<F, Endpoints<G>[K]>
  }
}

/** One route's method as the client holds it at run time. */
export type AnyRoute = (request: { readonly headers?: Record<string, unknown> } | undefined) => unknown

/** A client of the same shape whose every route is `f(group, endpoint, route)`. */
export const mapRoutes = (
  client: object,
  f: (group: string, endpoint: string, route: AnyRoute) => AnyRoute
): Record<string, Record<string, AnyRoute>> =>
  Object.fromEntries(
    Object.entries(client).map(([group, routes]) => [
      group,
      Object.fromEntries(
        Object.entries(routes as Record<string, AnyRoute>).map(([name, route]) => [name, f(group, name, route)])
      )
    ])
  )
