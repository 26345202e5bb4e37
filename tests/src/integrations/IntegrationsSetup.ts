import type { Ports } from "@svc/api"
import { AuditLog, ChatIntegration, Ledger, TeamOpening, Teams, type UserId, Users } from "@svc/domain"
import { Effect, Layer } from "effect"
import type { Client } from "../support/HttpScenarios.ts"
import type { Answer } from "../support/InProcessApp.ts"

/** The teams and audit services the integrations build on, over whichever ports the caller provides. */
export const integrationsOver = <E, R>(ports: Layer.Layer<Ports, E, R>) =>
  Layer.mergeAll(Users.layer, Teams.layer, TeamOpening.layer, AuditLog.layer).pipe(
    Layer.provideMerge(Ledger.layer),
    Layer.provideMerge(ports)
  )

/** A team made the way users make one, with its owner. */
export const integrationsTeam = (name = "Acme") =>
  Effect.gen(function* () {
    const owner = {
      id: crypto.randomUUID() as UserId,
      email: `owner-${crypto.randomUUID()}@example.com`,
      fullName: "Owner"
    }
    const team = yield* TeamOpening.use((opening) => opening.open(owner, { name }))
    return { team, owner }
  })

/** A stored-shape chat integration of `teamId`, installed by `installedBy`, in workspace `workspaceId`. */
export const chatIntegrationOf = (
  teamId: ChatIntegration["teamId"],
  installedBy: UserId,
  more: Partial<ConstructorParameters<typeof ChatIntegration>[0]> = {}
) =>
  new ChatIntegration({
    id: crypto.randomUUID(),
    teamId,
    workspaceId: "T0001",
    workspaceName: "Acme HQ",
    channelId: "C0001",
    channelName: "approvals",
    botUserId: "U0BOT",
    botToken: "v1.aXY.Y2lwaGVy",
    scopes: ["chat:write", "commands"],
    installedBy,
    installedAt: "2026-11-27T08:00:00.000Z",
    ...more
  })

/** A cookie a browser keeps: its value and the path it is sent under. */
interface KeptCookie {
  readonly value: string
  readonly path: string
}

/**
 * A browser over an in-process app: it keeps the cookies answers set (by name; `Max-Age=0` drops one) and sends each
 * to the paths under its `Path`, as a browser following the install flow's redirects does; a call's `token` is the
 * bearer credential the dashboard adds to its API calls.
 */
export const browserOf = (app: Client) => {
  const jar = new Map<string, KeptCookie>()
  const keep = (line: string) => {
    const [pair = "", ...attributes] = line.split(";").map((part) => part.trim())
    const at = pair.indexOf("=")
    const name = pair.slice(0, at)
    const attribute = (key: string) =>
      attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1)
    if (attribute("max-age") === "0") jar.delete(name)
    else jar.set(name, { value: pair.slice(at + 1), path: attribute("path") ?? "/" })
  }
  const call = async (
    method: string,
    path: string,
    options: { readonly token?: string; readonly body?: unknown } = {}
  ): Promise<Answer> => {
    const pathname = new URL(path, "http://svc.test").pathname
    const cookie = Array.from(jar)
      .filter(([, kept]) => pathname === kept.path || pathname.startsWith(`${kept.path.replace(/\/$/u, "")}/`))
      .map(([name, kept]) => `${name}=${kept.value}`)
      .join("; ")
    const answer = await app.call(method, path, { ...options, ...(cookie === "" ? {} : { headers: { cookie } }) })
    for (const line of answer.headers.getSetCookie()) keep(line)
    return answer
  }
  return {
    call,
    cookies: () => new Map(Array.from(jar, ([name, kept]) => [name, kept.value])),
    /** Puts a cookie in the jar as if an answer had set it. */
    plant: (name: string, value: string, path: string) => {
      jar.set(name, { value, path })
    }
  }
}

/** A browser of `browserOf`. */
export type Browser = ReturnType<typeof browserOf>
