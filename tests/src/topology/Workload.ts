/**
 * The load of the failover suite: concurrent logical operations (spend requests, book transfers accepted or declined,
 * card authorizations on the issuer's auth-stream), each retried by its client under the published retry policy with
 * its Idempotency-Key, and recorded attempt by attempt so that `checkInvariants` can hold the database to every answer.
 * Plain TypeScript (no vitest): the topology orchestrator imports it.
 */
import { isRetryableStatus, nextDelay, parseRetryAfter } from "@svc/sdk"
import { Effect } from "effect"
import { inParallel, send, spender, withSql } from "../faults/SpendLoad.ts"
import { SESSION_SECRET } from "../support/Session.ts"
import { SECRETS, sign } from "../support/WebhooksHarness.ts"

/** Where the load goes: the HTTP front, and the leader's Postgres (no pooler) for reading card tokens. */
export interface WorkloadTarget {
  readonly baseUrl: string
  readonly databaseUrl: string
}

const CARD_ISSUING_SECRET = SECRETS["card-issuing-a"] ?? ""

/** The bearer token of every API node's `/metrics`. */
export const METRICS_TOKEN = "topology-metrics-token"

/**
 * The environment every API process needs for the workload: the session secret its owners' tokens are signed with,
 * the card issuer's auth-stream secret, one card-number key for every process, and a /v1 rate limit the load never
 * reaches (the buckets are shared through the database, so the limit is for all processes together), and the token
 * the suite reads each node's metrics with.
 */
export const API_ENV: Record<string, string> = {
  SESSION_JWT_SECRET: SESSION_SECRET,
  METRICS_TOKEN: METRICS_TOKEN,
  WEBHOOK_SECRET_CARD_ISSUING_A: CARD_ISSUING_SECRET,
  CARD_NUMBER_KEY: "topology-card-number-key-0123456789abcdef",
  RATE_LIMIT_V1_PER_MINUTE: "10000000"
}

/** The policy of every spending key the spend operations use. */
interface SpendPolicy {
  readonly dailyBudget: number
  readonly approvalThreshold: number
  readonly perRequestLimit: number
}

export interface WorkloadOptions {
  /** Spending keys (each on a team and account of its own) the spend requests are spread over. */
  readonly spendKeys?: number
  readonly spendPolicy?: SpendPolicy
  /** Sender/recipient team pairs the transfers are spread over. */
  readonly transferPairs?: number
  /** The senders' per-request limit: transfers above it are denied by policy. */
  readonly transferLimit?: number
  /** Approved checkout intents with a card each; authorizations go round them, so a card's later ones are declined. */
  readonly cards?: number
  /** Concurrent clients, each running one logical operation after another. */
  readonly workers?: number
  /** How long a client keeps retrying one logical operation (the retry policy's `maxElapsedMs`). */
  readonly opDeadlineMs?: number
  /** How long one attempt waits for its answer before the client counts it as no answer (status 0). */
  readonly attemptTimeoutMs?: number
}

const DEFAULTS: Required<WorkloadOptions> = {
  spendKeys: 4,
  spendPolicy: { dailyBudget: 100_000, approvalThreshold: 2_000, perRequestLimit: 10_000 },
  transferPairs: 2,
  transferLimit: 8_000,
  cards: 64,
  workers: 16,
  opDeadlineMs: 60_000,
  attemptTimeoutMs: 10_000
}

const FUNDS = 100_000_000
const SPEND_AMOUNTS = [300, 800, 1_500, 2_500, 4_000, 12_000]
const TRANSFER_AMOUNTS = [500, 1_200, 2_500, 9_000]
const CARD_AMOUNT = 1_000
const CARD_MERCHANT = { name: "Topology Books", mcc: "5942", country: "US" }
const CARD_DESCRIPTOR = "TOPOLOGY BOOKS 7"
/** Operation kinds in turn: two spend requests, a transfer and a card authorization. */
const KINDS = ["spend", "transfer", "spend", "authorization"] as const

/** A spending key of a team of its own, as the load uses it. */
interface Agent {
  readonly teamId: string
  readonly keyId: string
  readonly secret: string
}

/** A card issued for an approved checkout intent, with the issuer's token its authorizations name. */
interface PreparedCard {
  readonly teamId: string
  readonly intentId: string
  readonly cardId: string
  readonly cardToken: string
  readonly amount: number
}

/** What `prepareWorkload` set up, for `startWorkload` and `checkInvariants`. */
export interface Prepared {
  readonly options: Required<WorkloadOptions>
  readonly spenders: ReadonlyArray<Agent>
  readonly transferPairs: ReadonlyArray<{ readonly sender: Agent; readonly recipient: Agent; readonly address: string }>
  readonly cardAgent: Agent
  readonly cards: ReadonlyArray<PreparedCard>
  /** Wall time of the set-up. */
  readonly preparedInMs: number
}

/** One try of a call: when it started (Date.now()), how long it took, its status (0: no answer) and error code. */
interface Attempt {
  readonly at: number
  readonly ms: number
  readonly status: number
  readonly retryAfter: string | null
  /** The JSON body's `error` code of a non-2xx answer, if it had one. */
  readonly error: string | null
}

/** One HTTP call of an operation with every attempt, and its 2xx body once one came (the acknowledged answer). */
export interface Call {
  readonly name: "spend" | "transfer" | "accept" | "decline" | "authorize"
  readonly idempotencyKey: string
  readonly attempts: Array<Attempt>
  answer: Record<string, unknown> | undefined
}

/**
 * One logical operation: `key` is its idempotency key (a card authorization's: the issuer's authorization token);
 * `target` indexes `spenders`, `transferPairs` or `cards`. A transfer's second call accepts or declines it.
 */
export interface Op {
  readonly kind: (typeof KINDS)[number]
  readonly key: string
  readonly target: number
  readonly amount: number
  /** What a transfer's recipient does once it waits for them (one in three is declined); null for other kinds. */
  readonly resolution: "accept" | "decline" | null
  readonly startedAt: number
  finishedAt: number
  readonly calls: Array<Call>
}

export interface WorkloadReport {
  readonly startedAt: number
  readonly stoppedAt: number
  readonly ops: ReadonlyArray<Op>
}

export interface RunningWorkload {
  /** Stops issuing new operations, lets the ones in flight finish their retries, and answers the record. */
  readonly stop: () => Promise<WorkloadReport>
}

const json = (text: string): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Runs one call under the published client retry policy (the SDK's `nextDelay`: backoff from 500 ms, factor 1.5) until
 * it is answered 2xx or anything not worth retrying, or the operation's deadline: connection failures, 5xx, 429 and
 * 409 `idempotency_key_in_use` (which a retry meets when the attempt it gave up on still runs; both waiting their
 * Retry-After) are retried. Every try sends the same method, path, key and body.
 */
const runCall = async (
  op: Op,
  name: Call["name"],
  idempotencyKey: string,
  deadlineMs: number,
  attempt: () => Promise<{ status: number; headers: Headers; text: string }>
): Promise<Call> => {
  const call: Call = { name, idempotencyKey, attempts: [], answer: undefined }
  op.calls.push(call)
  for (let retry = 1; ; retry++) {
    const at = Date.now()
    const reply = await attempt()
    const body = json(reply.text)
    const retryAfter = reply.headers.get("retry-after")
    call.attempts.push({
      at,
      ms: Date.now() - at,
      status: reply.status,
      retryAfter,
      error: reply.status >= 200 && reply.status < 300 ? null : typeof body?.error === "string" ? body.error : null
    })
    if (reply.status >= 200 && reply.status < 300) {
      call.answer = body
      return call
    }
    if (reply.status !== 0 && !isRetryableStatus(reply.status, retryAfter ?? undefined)) return call
    const waitFor = reply.status > 0 && reply.status < 500 ? parseRetryAfter(retryAfter ?? undefined) : null
    const delay = nextDelay({ maxElapsedMs: deadlineMs }, retry, Date.now() - op.startedAt, waitFor)
    if (delay === null) return call
    await sleep(delay)
  }
}

/**
 * Sets the load up over HTTP: spending keys with `spendPolicy`, transfer pairs (senders with a per-request limit), and
 * approved checkout intents with their cards issued (the issuer's card tokens read from `checkout_cards`, as the bench
 * does). Every account holds plenty of funds.
 */
export const prepareWorkload = async (target: WorkloadTarget, options: WorkloadOptions = {}): Promise<Prepared> => {
  const started = Date.now()
  const o = { ...DEFAULTS, ...options }
  const agent = async (policy: Record<string, number>): Promise<Agent> => {
    const { teamId, keyId, secret } = await spender(target.baseUrl, policy, FUNDS)
    return { teamId, keyId, secret }
  }
  const spenders = await Promise.all(Array.from({ length: o.spendKeys }, () => agent({ ...o.spendPolicy })))
  const transferPairs = await Promise.all(
    Array.from({ length: o.transferPairs }, async () => {
      const [sender, recipient] = await Promise.all([agent({ perRequestLimit: o.transferLimit }), agent({})])
      const reply = await send(target.baseUrl, "GET", "/v1/transfers/receive-address", { token: recipient.secret })
      if (reply.status !== 200) throw new Error(`receive address: ${reply.status} ${reply.text}`)
      return { sender, recipient, address: String(json(reply.text)?.address) }
    })
  )
  const cardAgent = await agent({})
  const post = async (path: string, status: number, body: unknown) => {
    const reply = await send(target.baseUrl, "POST", path, {
      token: cardAgent.secret,
      body: JSON.stringify(body),
      headers: { "idempotency-key": crypto.randomUUID() }
    })
    if (reply.status !== status) throw new Error(`POST ${path}: ${reply.status} ${reply.text}`)
    return json(reply.text) ?? {}
  }
  const issued: Array<{ readonly intentId: string; readonly cardId: string }> = []
  await inParallel(
    16,
    Array.from({ length: o.cards }, () => async () => {
      const intent = await post("/v1/checkout/intents", 201, {
        amount: CARD_AMOUNT,
        currency: "USD",
        merchant: CARD_MERCHANT,
        purpose: "topology workload"
      })
      if (intent.status !== "approved") throw new Error(`intent ${String(intent.id)} is ${String(intent.status)}`)
      const credentials = await post(`/v1/checkout/intents/${String(intent.id)}/credentials`, 200, {})
      issued.push({ intentId: String(intent.id), cardId: String(credentials.cardId) })
    })
  )
  const tokens = await withSql(target.databaseUrl, (sql) =>
    Effect.map(
      sql<{ readonly id: string; readonly token: string }>`
        SELECT id::text AS id, token FROM checkout_cards WHERE team_id = ${cardAgent.teamId}`,
      (rows) => new Map(rows.map((r) => [r.id, r.token]))
    )
  )
  const cards = issued.map(({ intentId, cardId }) => {
    const cardToken = tokens.get(cardId)
    if (cardToken === undefined) throw new Error(`no issuer token for card ${cardId}`)
    return { teamId: cardAgent.teamId, intentId, cardId, cardToken, amount: CARD_AMOUNT }
  })
  return { options: o, spenders, transferPairs, cardAgent, cards, preparedInMs: Date.now() - started }
}

/** The purpose (spend requests) or memo (transfers) that names an operation's key, so rows can be found by key. */
export const labelOf = (key: string) => `topology ${key}`

/** Runs `op`, recording its calls in it. */
const runOp = async (prepared: Prepared, target: WorkloadTarget, op: Op) => {
  const { opDeadlineMs: deadline, attemptTimeoutMs: timeoutMs } = prepared.options
  const base = target.baseUrl
  if (op.kind === "spend") {
    const secret = prepared.spenders[op.target]?.secret ?? ""
    const body = JSON.stringify({
      amount: op.amount,
      currency: "USD",
      merchant: { name: "OpenAI", category: "software" },
      purpose: labelOf(op.key)
    })
    await runCall(op, "spend", op.key, deadline, () =>
      send(base, "POST", "/v1/spend-requests", {
        token: secret,
        body,
        headers: { "idempotency-key": op.key },
        timeoutMs
      })
    )
  } else if (op.kind === "transfer") {
    const pair = prepared.transferPairs[op.target]
    if (pair === undefined) return
    const body = JSON.stringify({
      to: { address: pair.address },
      amount: op.amount,
      currency: "USD",
      memo: labelOf(op.key)
    })
    const created = await runCall(op, "transfer", op.key, deadline, () =>
      send(base, "POST", "/v1/transfers", {
        token: pair.sender.secret,
        body,
        headers: { "idempotency-key": op.key },
        timeoutMs
      })
    )
    if (created.answer?.status !== "pending_acceptance") return
    const resolution = op.resolution ?? "accept"
    const key = `${op.key}-${resolution}`
    await runCall(op, resolution, key, deadline, () =>
      send(base, "POST", `/v1/transfers/${String(created.answer?.id)}/${resolution}`, {
        token: pair.recipient.secret,
        headers: { "idempotency-key": key },
        timeoutMs
      })
    )
  } else {
    const card = prepared.cards[op.target]
    if (card === undefined) return
    const body = JSON.stringify({
      token: op.key,
      card_token: card.cardToken,
      amount: op.amount,
      currency: "USD",
      merchant: { descriptor: CARD_DESCRIPTOR, mcc: CARD_MERCHANT.mcc, country: CARD_MERCHANT.country }
    })
    const id = `msg_${op.key}`
    await runCall(op, "authorize", op.key, deadline, async () =>
      send(base, "POST", "/webhook/card-issuing-a/auth-stream", {
        body,
        headers: await sign("card-issuing-a/auth-stream", body, { id }),
        timeoutMs
      })
    )
  }
}

/**
 * Starts `workers` clients, each running logical operations one after another (spend requests, transfers, card
 * authorizations in turn, spread over the prepared keys, pairs and cards) until `stop`.
 */
export const startWorkload = (prepared: Prepared, target: WorkloadTarget): RunningWorkload => {
  const startedAt = Date.now()
  const ops: Array<Op> = []
  const counts = { spend: 0, transfer: 0, authorization: 0 }
  let stopping = false
  const next = (): Op => {
    const kind = KINDS[ops.length % KINDS.length] ?? "spend"
    const n = counts[kind]++
    const [target, amount] =
      kind === "spend"
        ? [n % prepared.spenders.length, SPEND_AMOUNTS[n % SPEND_AMOUNTS.length] ?? 1]
        : kind === "transfer"
          ? [n % prepared.transferPairs.length, TRANSFER_AMOUNTS[n % TRANSFER_AMOUNTS.length] ?? 1]
          : [n % prepared.cards.length, CARD_AMOUNT]
    const key = kind === "authorization" ? `auth_${crypto.randomUUID()}` : `topology-${kind}-${crypto.randomUUID()}`
    const resolution = kind !== "transfer" ? null : n % 3 === 2 ? "decline" : "accept"
    const op: Op = { kind, key, target, amount, resolution, startedAt: Date.now(), finishedAt: 0, calls: [] }
    ops.push(op)
    return op
  }
  const worker = async () => {
    while (!stopping) {
      const op = next()
      await runOp(prepared, target, op)
      op.finishedAt = Date.now()
    }
  }
  const running = Promise.all(Array.from({ length: prepared.options.workers }, worker))
  return {
    stop: async () => {
      stopping = true
      await running
      return { startedAt, stoppedAt: Date.now(), ops }
    }
  }
}

/**
 * Milliseconds from `atMs` (Date.now() clock) to the first 2xx answer of an attempt sent at or after `atMs`, by any
 * operation; undefined when none came.
 */
export const firstSuccessAfter = (report: WorkloadReport, atMs: number): number | undefined => {
  const answeredAt = report.ops
    .flatMap((op) => op.calls.flatMap((call) => call.attempts))
    .filter((a) => a.at >= atMs && a.status >= 200 && a.status < 300)
    .map((a) => a.at + a.ms - atMs)
  return answeredAt.length === 0 ? undefined : Math.min(...answeredAt)
}
