import { clientForUrl } from "@svc/adapters-pg"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { sessionToken } from "../support/Session.ts"

/** One answer from a server over the network; `status` 0 means no answer (refused, reset or timed out). */
export interface Reply {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  readonly ms: number
}

/** Sends one request to a running server; never throws. */
export const send = async (
  baseUrl: string,
  method: string,
  path: string,
  options: {
    readonly token?: string
    readonly body?: string
    readonly headers?: Record<string, string>
    readonly timeoutMs?: number
  } = {}
): Promise<Reply> => {
  const started = performance.now()
  const headers: Record<string, string> = { ...options.headers }
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
  if (options.body !== undefined) headers["content-type"] = "application/json"
  try {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      ...(options.body === undefined ? {} : { body: options.body })
    })
    const text = await response.text()
    return { status: response.status, headers: response.headers, text, ms: performance.now() - started }
  } catch {
    return { status: 0, headers: new Headers(), text: "", ms: performance.now() - started }
  }
}

/** Sends a JSON request and answers its parsed body; throws unless it answered `status` (plain, so load outside vitest can use it). */
const expectJson = async (
  baseUrl: string,
  method: string,
  path: string,
  status: number,
  options: Parameters<typeof send>[3]
) => {
  const reply = await send(baseUrl, method, path, options)
  if (reply.status !== status)
    throw new Error(`${method} ${path}: expected ${status}, got ${reply.status} ${reply.text}`)
  return JSON.parse(reply.text)
}

/**
 * A team set up over HTTP: its owner's session and a test spending key with `policy`, whose account holds `funds`.
 * Returns the key's secret and id and the team's id.
 */
export const spender = async (baseUrl: string, policy: Record<string, number>, funds: number) => {
  const owner = sessionToken({ email: "owner@faults.test" })
  const team = await expectJson(baseUrl, "POST", "/teams", 201, {
    token: owner,
    body: JSON.stringify({ name: "Faults" })
  })
  const key = await expectJson(baseUrl, "POST", "/treasury/spending-keys", 201, {
    token: owner,
    body: JSON.stringify({ name: "agent", mode: "test", policy })
  })
  await expectJson(baseUrl, "POST", "/v1/test-helpers/deposits", 201, {
    token: key.secret,
    body: JSON.stringify({ amount: funds, currency: "USD" }),
    headers: { "idempotency-key": crypto.randomUUID() }
  })
  return { owner, teamId: team.id as string, secret: key.secret as string, keyId: key.id as string }
}

/** The fixed body a key is always sent with: its purpose names the key, so rows can be counted per key. */
const spendBodyFor = (idempotencyKey: string, amount: number) =>
  JSON.stringify({
    amount,
    currency: "USD",
    merchant: { name: "OpenAI", category: "software" },
    purpose: `fault ${idempotencyKey}`
  })

/** Posts the spend request of `idempotencyKey` with its fixed body. */
export const sendSpend = (
  baseUrl: string,
  secret: string,
  idempotencyKey: string,
  amount: number,
  timeoutMs = 10_000
) =>
  send(baseUrl, "POST", "/v1/spend-requests", {
    token: secret,
    body: spendBodyFor(idempotencyKey, amount),
    headers: { "idempotency-key": idempotencyKey },
    timeoutMs
  })

/** Runs `tasks` with at most `width` in flight; resolves when all are done. */
export const inParallel = async (width: number, tasks: ReadonlyArray<() => Promise<void>>) => {
  let next = 0
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]?.()
  }
  await Promise.all(Array.from({ length: Math.min(width, tasks.length) }, worker))
}

/** Runs `f` with a SQL client on `url` (one connection, closed afterwards). */
export const withSql = <A>(url: string, f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
  Effect.runPromise(
    Effect.gen(function* () {
      return yield* f(yield* SqlClient.SqlClient)
    }).pipe(Effect.provide(clientForUrl(Redacted.make(url), 1)))
  )

/**
 * Every broken ledger rule in the database, as readable lines (none when the ledger is sound): a transaction whose
 * entries do not sum to zero per currency, or an account whose cached `posted_sum`, `pending_out` or `pending_in`
 * differs from the sums recomputed from its entries (non-pending entries post; pending entries of a hold reserve or
 * await, those of a hold's resolution give back).
 */
export const ledgerViolations = (sql: SqlClient.SqlClient) =>
  Effect.gen(function* () {
    const rows = yield* sql<{ readonly violation: string }>`
      SELECT 'transaction ' || transaction_id || ' sums to ' || SUM(amount) || ' ' || currency AS violation
      FROM ledger_entries GROUP BY transaction_id, currency HAVING SUM(amount) <> 0
      UNION ALL
      SELECT 'transaction ' || transaction_id || ' mixes currencies' FROM ledger_entries
      GROUP BY transaction_id HAVING COUNT(DISTINCT currency) > 1
      UNION ALL
      SELECT 'account ' || a.id || ' caches ' || a.posted_sum || '/' || a.pending_out || '/' || a.pending_in ||
             ' but its entries give ' || COALESCE(s.posted, 0) || '/' || COALESCE(s.pending_out, 0) || '/' ||
             COALESCE(s.pending_in, 0)
      FROM ledger_accounts a LEFT JOIN (
        SELECT e.account_id,
               SUM(e.amount) FILTER (WHERE NOT e.pending) AS posted,
               SUM(-e.amount) FILTER (WHERE e.pending AND (e.amount < 0) <> (t.pending_id IS NOT NULL)) AS pending_out,
               SUM(e.amount) FILTER (WHERE e.pending AND (e.amount < 0) = (t.pending_id IS NOT NULL)) AS pending_in
        FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
        GROUP BY e.account_id
      ) s ON s.account_id = a.id
      WHERE a.posted_sum <> COALESCE(s.posted, 0) OR a.pending_out <> COALESCE(s.pending_out, 0)
         OR a.pending_in <> COALESCE(s.pending_in, 0)`
    return rows.map((r) => r.violation)
  })
