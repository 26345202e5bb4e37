import type { DomainEvent, TeamId, WebhookDelivery, WebhookEndpoint } from "@svc/domain"

/** An enabled endpoint of `teamId` for every event type, stored as created at `at`. */
export const endpointRow = (teamId: TeamId, at: string): WebhookEndpoint => ({
  id: crypto.randomUUID(),
  teamId,
  url: "https://hooks.example.com/svc",
  eventTypes: ["*"],
  enabled: true,
  disabledReason: null,
  secretSalt: "salt",
  previousSecretSalt: null,
  previousSecretExpiresAt: null,
  createdAt: at,
  updatedAt: at
})

/** A live `spend_request.approved` outbox event of `teamId` created at `at`. */
export const approvedEvent = (teamId: TeamId, at: string): DomainEvent => ({
  id: crypto.randomUUID(),
  teamId,
  mode: "live",
  type: "spend_request.approved",
  data: {},
  createdAt: at
})

/**
 * A delivery of `eventId` to `endpointId` with `status`, created at `at` and due at `nextAttemptAt` (default `at`); a
 * succeeded one was delivered at `at` with 200.
 */
export const deliveryRow = (input: {
  readonly teamId: TeamId
  readonly endpointId: string
  readonly eventId: string
  readonly status: WebhookDelivery["status"]
  readonly at: string
  readonly nextAttemptAt?: string
  readonly attempts?: number
  readonly redeliveryOf?: string | null
}): WebhookDelivery => ({
  id: crypto.randomUUID(),
  teamId: input.teamId,
  endpointId: input.endpointId,
  eventId: input.eventId,
  eventType: "spend_request.approved",
  body: "{}",
  status: input.status,
  attempts: input.attempts ?? 1,
  nextAttemptAt: input.nextAttemptAt ?? input.at,
  lastStatusCode: input.status === "succeeded" ? 200 : null,
  lastError: null,
  redeliveryOf: input.redeliveryOf ?? null,
  createdAt: input.at,
  updatedAt: input.at,
  deliveredAt: input.status === "succeeded" ? input.at : null
})
