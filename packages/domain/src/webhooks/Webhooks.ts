import { Clock, Context, Effect, Layer, Option } from "effect"
import { EventOutbox } from "../platform/index.ts"
import { isoOfMillis, newIdText, nowIso, randomBytes, type TeamId, Transactor, utf8 } from "../shared/index.ts"
import type { PageRequest, PersistenceUnavailable } from "../shared/model.ts"
import {
  InvalidWebhookEndpoint,
  type WebhookDelivery,
  WebhookDeliveryNotFound,
  type WebhookEndpoint,
  WebhookEndpointNotFound,
  webhookEndpointView
} from "./WebhookEndpoint.ts"
import { checkEventTypes, checkWebhookUrl, type WebhookDestinationPolicy } from "./WebhookRules.ts"
import { WebhookDeliveriesRepo, WebhookEndpointsRepo } from "./WebhooksRepo.ts"
/** The server key from which every endpoint's signing secret is derived. */
export class WebhookSecretKey extends Context.Service<WebhookSecretKey, string>()("@svc/domain/WebhookSecretKey") {}

/** Where endpoints and their deliveries may point; public https destinations only unless configured otherwise. */
export const WebhookDestinations = Context.Reference<WebhookDestinationPolicy>("@svc/domain/WebhookDestinations", {
  defaultValue: () => ({ allowPrivateDestinations: false })
})

const WHSEC = "whsec_"

const base64 = (bytes: Uint8Array) => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(""))

/** An endpoint's signing secret `whsec_<base64 32-byte key>`: HMAC-SHA256 of the stored salt under the server key. */
export const endpointSecret = (serverKey: string, salt: string): Effect.Effect<string> =>
  Effect.promise(async () => {
    const key = await crypto.subtle.importKey("raw", utf8(serverKey), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign"
    ])
    return `${WHSEC}${base64(new Uint8Array(await crypto.subtle.sign("HMAC", key, utf8(`webhook-endpoint:${salt}`))))}`
  })

const newSalt = Effect.map(randomBytes(24), base64)

/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_GRACE_MS = 24 * 3_600_000

/** Input to register an endpoint. */
export interface RegisterEndpoint {
  readonly url: string
  readonly eventTypes: ReadonlyArray<string>
}

/** Changes to an endpoint. */
export interface UpdateEndpoint {
  readonly url?: string | undefined
  readonly eventTypes?: ReadonlyArray<string> | undefined
  readonly enabled?: boolean | undefined
}

type Failure = PersistenceUnavailable

/** Outbound webhook endpoints of a team: registration, secrets, and the delivery log. */
export class WebhookEndpoints extends Context.Service<
  WebhookEndpoints,
  {
    /** Registers an endpoint; the secret is returned here and on rotation only. */
    readonly register: (
      teamId: TeamId,
      input: RegisterEndpoint
    ) => Effect.Effect<
      { readonly endpoint: WebhookEndpoint; readonly secret: string },
      InvalidWebhookEndpoint | Failure
    >
    readonly list: (teamId: TeamId, page: PageRequest) => Effect.Effect<ReadonlyArray<WebhookEndpoint>, Failure>
    readonly get: (teamId: TeamId, id: string) => Effect.Effect<WebhookEndpoint, WebhookEndpointNotFound | Failure>
    readonly update: (
      teamId: TeamId,
      id: string,
      patch: UpdateEndpoint
    ) => Effect.Effect<WebhookEndpoint, WebhookEndpointNotFound | InvalidWebhookEndpoint | Failure>
    readonly disable: (
      teamId: TeamId,
      id: string,
      reason: string
    ) => Effect.Effect<WebhookEndpoint, WebhookEndpointNotFound | Failure>
    /** A new secret; the previous one keeps signing (as a second signature) for `ROTATION_GRACE_MS`. */
    readonly rotateSecret: (
      teamId: TeamId,
      id: string
    ) => Effect.Effect<
      { readonly endpoint: WebhookEndpoint; readonly secret: string },
      WebhookEndpointNotFound | Failure
    >
    /** The secrets that sign a delivery now: the current one, and the previous one during its grace period. */
    readonly signingSecrets: (endpoint: WebhookEndpoint, nowMs: number) => Effect.Effect<ReadonlyArray<string>>
    readonly deliveries: (
      teamId: TeamId,
      id: string,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<WebhookDelivery>, WebhookEndpointNotFound | Failure>
    /** Queues the delivery's event again for the endpoint, as a new delivery with the same body and webhook id. */
    readonly redeliver: (
      teamId: TeamId,
      id: string,
      deliveryId: string
    ) => Effect.Effect<WebhookDelivery, WebhookEndpointNotFound | WebhookDeliveryNotFound | Failure>
  }
>()("@svc/domain/WebhookEndpoints") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* WebhookEndpointsRepo
    const deliveriesRepo = yield* WebhookDeliveriesRepo
    const serverKey = yield* WebhookSecretKey
    const destinations = yield* WebhookDestinations
    const outbox = yield* EventOutbox
    const transactor = yield* Transactor

    const validate = (input: {
      readonly url?: string | undefined
      readonly eventTypes?: ReadonlyArray<string> | undefined
    }) => {
      const urlProblem = input.url === undefined ? undefined : checkWebhookUrl(input.url, destinations)
      if (urlProblem !== undefined)
        return Effect.fail(new InvalidWebhookEndpoint({ field: "url", message: urlProblem }))
      const typesProblem = input.eventTypes === undefined ? undefined : checkEventTypes(input.eventTypes)
      if (typesProblem !== undefined) {
        return Effect.fail(new InvalidWebhookEndpoint({ field: "eventTypes", message: typesProblem }))
      }
      return Effect.void
    }

    const get = Effect.fn("WebhookEndpoints.get")(function* (teamId: TeamId, id: string) {
      const found = yield* repo.find(teamId, id)
      return yield* Option.match(found, {
        onNone: () => Effect.fail(new WebhookEndpointNotFound({ endpointId: id })),
        onSome: Effect.succeed
      })
    })

    const register = Effect.fn("WebhookEndpoints.register")(function* (teamId: TeamId, input: RegisterEndpoint) {
      yield* validate(input)
      const now = yield* nowIso
      const endpoint: WebhookEndpoint = {
        id: yield* newIdText,
        teamId,
        url: input.url,
        eventTypes: [...new Set(input.eventTypes)],
        enabled: true,
        disabledReason: null,
        secretSalt: yield* newSalt,
        previousSecretSalt: null,
        previousSecretExpiresAt: null,
        createdAt: now,
        updatedAt: now
      }
      yield* repo.insert(endpoint)
      return { endpoint, secret: yield* endpointSecret(serverKey, endpoint.secretSalt) }
    })

    const update = Effect.fn("WebhookEndpoints.update")(function* (teamId: TeamId, id: string, patch: UpdateEndpoint) {
      yield* validate(patch)
      const current = yield* get(teamId, id)
      const enabled = patch.enabled ?? current.enabled
      const next: WebhookEndpoint = {
        ...current,
        url: patch.url ?? current.url,
        eventTypes: patch.eventTypes === undefined ? current.eventTypes : [...new Set(patch.eventTypes)],
        enabled,
        disabledReason: enabled ? null : patch.enabled === false ? "disabled_by_user" : current.disabledReason,
        updatedAt: yield* nowIso
      }
      yield* save(current, next)
      return next
    })

    /** Stores the endpoint's new state; turning it off publishes `webhook_endpoint.disabled` with the change. */
    const save = (current: WebhookEndpoint, next: WebhookEndpoint) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          yield* repo.update(next)
          if (!current.enabled || next.enabled) return
          yield* outbox.publish({
            id: yield* newIdText,
            teamId: next.teamId,
            mode: "live",
            type: "webhook_endpoint.disabled",
            data: { ...webhookEndpointView(next) },
            createdAt: next.updatedAt
          })
        })
      )

    const disable = Effect.fn("WebhookEndpoints.disable")(function* (teamId: TeamId, id: string, reason: string) {
      const current = yield* get(teamId, id)
      const next = { ...current, enabled: false, disabledReason: reason, updatedAt: yield* nowIso }
      yield* save(current, next)
      return next
    })

    const rotateSecret = Effect.fn("WebhookEndpoints.rotateSecret")(function* (teamId: TeamId, id: string) {
      const current = yield* get(teamId, id)
      const now = yield* Clock.currentTimeMillis
      const next: WebhookEndpoint = {
        ...current,
        secretSalt: yield* newSalt,
        previousSecretSalt: current.secretSalt,
        previousSecretExpiresAt: isoOfMillis(now + ROTATION_GRACE_MS),
        updatedAt: isoOfMillis(now)
      }
      yield* repo.update(next)
      return { endpoint: next, secret: yield* endpointSecret(serverKey, next.secretSalt) }
    })

    const signingSecrets = (endpoint: WebhookEndpoint, nowMs: number) =>
      Effect.gen(function* () {
        const current = yield* endpointSecret(serverKey, endpoint.secretSalt)
        const previousValid =
          endpoint.previousSecretSalt !== null &&
          endpoint.previousSecretExpiresAt !== null &&
          Date.parse(endpoint.previousSecretExpiresAt) > nowMs
        return previousValid ? [current, yield* endpointSecret(serverKey, endpoint.previousSecretSalt!)] : [current]
      })

    const deliveries = Effect.fn("WebhookEndpoints.deliveries")(function* (
      teamId: TeamId,
      id: string,
      page: PageRequest
    ) {
      yield* get(teamId, id)
      return yield* deliveriesRepo.list(teamId, id, page)
    })

    const redeliver = Effect.fn("WebhookEndpoints.redeliver")(function* (
      teamId: TeamId,
      id: string,
      deliveryId: string
    ) {
      yield* get(teamId, id)
      const found = yield* deliveriesRepo.find(teamId, id, deliveryId)
      if (Option.isNone(found)) return yield* new WebhookDeliveryNotFound({ deliveryId })
      const now = yield* nowIso
      const copy: WebhookDelivery = {
        ...found.value,
        id: yield* newIdText,
        status: "pending",
        attempts: 0,
        nextAttemptAt: now,
        lastStatusCode: null,
        lastError: null,
        redeliveryOf: found.value.redeliveryOf ?? found.value.id,
        createdAt: now,
        updatedAt: now,
        deliveredAt: null
      }
      yield* deliveriesRepo.insert(copy)
      return copy
    })

    return WebhookEndpoints.of({
      register,
      list: repo.list,
      get,
      update,
      disable,
      rotateSecret,
      signingSecrets,
      deliveries,
      redeliver
    })
  })
  static readonly layer = Layer.effect(WebhookEndpoints, WebhookEndpoints.make)
}
