import { Context, Effect, Layer, Option, Schema } from "effect"
import type { DomainEvent } from "../platform/index.ts"
import type { PageRequest, PersistenceUnavailable } from "../shared/index.ts"
import { type TeamId, utf8, uuidv7 } from "../shared/index.ts"

/** A team's registered receiver of outbound events. Its signing secret is derived, never stored (see `endpointSecret`). */
export interface WebhookEndpoint {
  readonly id: string
  readonly teamId: TeamId
  readonly url: string
  readonly eventTypes: ReadonlyArray<string>
  readonly enabled: boolean
  readonly disabledReason: string | null
  readonly secretSalt: string
  readonly previousSecretSalt: string | null
  readonly previousSecretExpiresAt: string | null
  readonly createdAt: string
  readonly updatedAt: string
}

/** Where one delivery of an event to an endpoint stands. */
export const WebhookDeliveryStatus = Schema.Literals(["pending", "succeeded", "failed"])
export type WebhookDeliveryStatus = typeof WebhookDeliveryStatus.Type

/** One event sent (or to be sent) to one endpoint; the body is fixed when the delivery is created. */
export interface WebhookDelivery {
  readonly id: string
  readonly teamId: TeamId
  readonly endpointId: string
  readonly eventId: string
  readonly eventType: string
  readonly body: string
  readonly status: WebhookDeliveryStatus
  readonly attempts: number
  readonly nextAttemptAt: string
  readonly lastStatusCode: number | null
  readonly lastError: string | null
  readonly redeliveryOf: string | null
  readonly createdAt: string
  readonly updatedAt: string
  readonly deliveredAt: string | null
}

/** The result of an attempt, written back to the delivery. */
export interface DeliveryAttemptResult {
  readonly status: WebhookDeliveryStatus
  readonly attempts: number
  readonly nextAttemptAt: string
  readonly lastStatusCode: number | null
  readonly lastError: string | null
  readonly deliveredAt: string | null
  readonly updatedAt: string
}

/** No such webhook endpoint in this team. */
export class WebhookEndpointNotFound extends Schema.TaggedError<WebhookEndpointNotFound>()("WebhookEndpointNotFound", {
  endpointId: Schema.String
}) {}

/** No such delivery for this endpoint. */
export class WebhookDeliveryNotFound extends Schema.TaggedError<WebhookDeliveryNotFound>()("WebhookDeliveryNotFound", {
  deliveryId: Schema.String
}) {}

/** An endpoint URL or event type list that cannot be accepted. */
export class InvalidWebhookEndpoint extends Schema.TaggedError<InvalidWebhookEndpoint>()("InvalidWebhookEndpoint", {
  field: Schema.String,
  message: Schema.String
}) {}

/** Storage of webhook endpoints. */
export class WebhookEndpointsRepo extends Context.Service<
  WebhookEndpointsRepo,
  {
    readonly insert: (endpoint: WebhookEndpoint) => Effect.Effect<void, PersistenceUnavailable>
    /** Replaces the stored endpoint with the same id. */
    readonly update: (endpoint: WebhookEndpoint) => Effect.Effect<void, PersistenceUnavailable>
    readonly find: (teamId: TeamId, id: string) => Effect.Effect<Option.Option<WebhookEndpoint>, PersistenceUnavailable>
    readonly list: (
      teamId: TeamId,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<WebhookEndpoint>, PersistenceUnavailable>
    /** The enabled endpoints of these teams, oldest first. */
    readonly listEnabled: (
      teamIds: ReadonlyArray<TeamId>
    ) => Effect.Effect<ReadonlyArray<WebhookEndpoint>, PersistenceUnavailable>
  }
>()("@svc/domain/WebhookEndpointsRepo") {}

/** Storage of deliveries, fed from the event outbox. Several workers may share it. */
export class WebhookDeliveriesRepo extends Context.Service<
  WebhookDeliveriesRepo,
  {
    /** Inside a transaction: outbox events not yet fanned out, oldest first, locked (skipping events another worker holds). */
    readonly lockUndispatchedEvents: (
      limit: number
    ) => Effect.Effect<ReadonlyArray<DomainEvent>, PersistenceUnavailable>
    readonly markDispatched: (
      eventIds: ReadonlyArray<string>,
      at: string
    ) => Effect.Effect<void, PersistenceUnavailable>
    /** Inserts deliveries; a first delivery of an event to an endpoint already present is left alone. */
    readonly insert: (...deliveries: ReadonlyArray<WebhookDelivery>) => Effect.Effect<void, PersistenceUnavailable>
    /** Takes up to `limit` pending deliveries due at `now` (skipping those another worker holds) and leases them. */
    readonly claimDue: (input: {
      readonly now: string
      readonly leaseUntil: string
      readonly limit: number
    }) => Effect.Effect<ReadonlyArray<WebhookDelivery>, PersistenceUnavailable>
    readonly recordAttempt: (id: string, result: DeliveryAttemptResult) => Effect.Effect<void, PersistenceUnavailable>
    readonly find: (
      teamId: TeamId,
      endpointId: string,
      id: string
    ) => Effect.Effect<Option.Option<WebhookDelivery>, PersistenceUnavailable>
    readonly list: (
      teamId: TeamId,
      endpointId: string,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<WebhookDelivery>, PersistenceUnavailable>
    /**
     * Deletes finished (succeeded or failed) deliveries created before the cutoff (ISO timestamp), but never the
     * original of a redelivery that stays; returns how many.
     */
    readonly purgeFinishedBefore: (cutoff: string) => Effect.Effect<number, PersistenceUnavailable>
    /** Deletes outbox events already fanned out of which no delivery is left; returns how many. */
    readonly purgeDispatchedEvents: Effect.Effect<number, PersistenceUnavailable>
  }
>()("@svc/domain/WebhookDeliveriesRepo") {}

/** The server key from which every endpoint's signing secret is derived. */
export class WebhookSecretKey extends Context.Service<WebhookSecretKey, string>()("@svc/domain/WebhookSecretKey") {}

const WHSEC = "whsec_"
const EVENT_TYPE = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$/u
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"])

/** The event types endpoints can subscribe to ("*" for all). */
export const WebhookEventTypes = [
  "spend_request.created",
  "spend_request.approval_required",
  "spend_request.approved",
  "spend_request.denied",
  "spend_request.expired",
  "spend_request.canceled"
] as const

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/u

/** Whether a URL host is an IP literal in a private, link-local, shared or unspecified range (never a delivery target). */
export const isInternalAddress = (hostname: string): boolean => {
  const v4 = IPV4.exec(hostname)
  if (v4 !== null) {
    const [a, b] = [Number(v4[1]), Number(v4[2])]
    return (
      a === 0 ||
      a === 10 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168)
    )
  }
  if (!hostname.startsWith("[")) return false
  const v6 = hostname.slice(1, -1).toLowerCase()
  return v6 === "::" || /^f[cd]/u.test(v6) || /^fe[89ab]/u.test(v6) || v6.startsWith("::ffff:")
}

/**
 * An endpoint URL must be https, or http on localhost; no credentials, no private or link-local IP literal (such as
 * a cloud metadata address), at most 2048 characters.
 */
export const checkWebhookUrl = (raw: string): string | undefined => {
  if (raw.length > 2048) return "must be at most 2048 characters"
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return "must be an absolute URL"
  }
  if (url.username !== "" || url.password !== "") return "must not contain credentials"
  if (isInternalAddress(url.hostname)) return "must not point at a private or link-local address"
  if (url.protocol === "https:") return undefined
  if (url.protocol === "http:" && LOCAL_HOSTS.has(url.hostname)) return undefined
  return "must use https (http is allowed only on localhost)"
}

/** Event types are "*" or dotted lower-case names (e.g. `spend_request.approved`, `transfer.accepted`). */
export const checkEventTypes = (types: ReadonlyArray<string>): string | undefined => {
  if (types.length === 0 || types.length > 50) return "must list 1 to 50 event types"
  const bad = types.find((t) => t !== "*" && !EVENT_TYPE.test(t))
  return bad === undefined ? undefined : `unknown event type ${JSON.stringify(bad.slice(0, 100))}`
}

/** Whether an endpoint subscribes to an event type. */
export const subscribesTo = (endpoint: WebhookEndpoint, type: string): boolean =>
  endpoint.enabled && endpoint.eventTypes.some((t) => t === "*" || t === type)

const base64 = (bytes: Uint8Array) => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(""))

/** An endpoint's signing secret `whsec_<base64 32-byte key>`: HMAC-SHA256 of the stored salt under the server key. */
export const endpointSecret = (serverKey: string, salt: string): Effect.Effect<string> =>
  Effect.promise(async () => {
    const key = await crypto.subtle.importKey("raw", utf8(serverKey), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign"
    ])
    return `${WHSEC}${base64(new Uint8Array(await crypto.subtle.sign("HMAC", key, utf8(`webhook-endpoint:${salt}`))))}`
  })

const newSalt = () => base64(crypto.getRandomValues(new Uint8Array(24)))

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

    const validate = (input: {
      readonly url?: string | undefined
      readonly eventTypes?: ReadonlyArray<string> | undefined
    }) => {
      const urlProblem = input.url === undefined ? undefined : checkWebhookUrl(input.url)
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
      const now = new Date().toISOString()
      const endpoint: WebhookEndpoint = {
        id: uuidv7(),
        teamId,
        url: input.url,
        eventTypes: [...new Set(input.eventTypes)],
        enabled: true,
        disabledReason: null,
        secretSalt: newSalt(),
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
        updatedAt: new Date().toISOString()
      }
      yield* repo.update(next)
      return next
    })

    const disable = Effect.fn("WebhookEndpoints.disable")(function* (teamId: TeamId, id: string, reason: string) {
      const current = yield* get(teamId, id)
      const next = { ...current, enabled: false, disabledReason: reason, updatedAt: new Date().toISOString() }
      yield* repo.update(next)
      return next
    })

    const rotateSecret = Effect.fn("WebhookEndpoints.rotateSecret")(function* (teamId: TeamId, id: string) {
      const current = yield* get(teamId, id)
      const now = Date.now()
      const next: WebhookEndpoint = {
        ...current,
        secretSalt: newSalt(),
        previousSecretSalt: current.secretSalt,
        previousSecretExpiresAt: new Date(now + ROTATION_GRACE_MS).toISOString(),
        updatedAt: new Date(now).toISOString()
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
      const now = new Date().toISOString()
      const copy: WebhookDelivery = {
        ...found.value,
        id: uuidv7(),
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
