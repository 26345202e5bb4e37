import { Context, type Effect, type Option } from "effect"
import type { PersistenceUnavailable } from "../shared/model.ts"
import type { AgentPrincipal, TeamPrincipal } from "./Principals.ts"

/** Resolves a raw /v1 credential (spending key or team API key, never an OAuth token) to its agent; none when unknown or revoked. */
export class AgentCredentials extends Context.Service<
  AgentCredentials,
  { readonly authenticate: (raw: string) => Effect.Effect<Option.Option<AgentPrincipal>, PersistenceUnavailable> }
>()("@svc/domain/AgentCredentials") {}

/** Resolves a raw OAuth access token or generic API key to its principal; none when unknown, revoked or expired. */
export class TeamCredentials extends Context.Service<
  TeamCredentials,
  { readonly authenticate: (raw: string) => Effect.Effect<Option.Option<TeamPrincipal>, PersistenceUnavailable> }
>()("@svc/domain/TeamCredentials") {}
